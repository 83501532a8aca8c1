import { apiMessages as M } from '@app/contracts';
import { imageTypeOf } from '../src/avatars/image';
import { STRONG_PASSWORD, call, lastMail, newWallet, refreshCookie, register, siweSign, startTestApp, uniqueEmail, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A confirmed account (the settings are for registered users), signed in. */
async function member(email = uniqueEmail('settings')) {
  const r = await register(t.app, email);
  return { email, token: r.token, refreshToken: r.refreshToken, id: r.user.id as string };
}

async function login(email: string, password = STRONG_PASSWORD, headers: Record<string, string> = {}) {
  const r = await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password }, headers });
  expect(r.status).toBe(200);
  return { token: r.body.token as string, cookie: refreshCookie(r.headers['set-cookie'])! };
}

// Smallest real files of each kind (1 × 1 pixel).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const WEBP = Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);

describe('PUT /user/update', () => {
  it('changes, keeps and clears fields; the phone is stored in E.164', async () => {
    const { token } = await member();
    const r = await call(t.app, 'PUT', '/api/v1/user/update', { token, body: { name: '  Ann  ', phone: '+44 20 7946 0958', telegram: '@ann_smith' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Ann', phone: '+442079460958', telegram: '@ann_smith' });
    const cleared = await call(t.app, 'PUT', '/api/v1/user/update', { token, body: { phone: '', telegram: null } });
    expect(cleared.body).toMatchObject({ name: 'Ann', phone: null, telegram: null });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).body).toMatchObject({ name: 'Ann', phone: null });
  });

  it.each([
    [{ phone: 'call me', telegram: 'ann', name: 'n'.repeat(51) }, { phone: M.invalidPhone, telegram: M.invalidTelegram, name: 'Max length is 50!' }],
    [{ email: '' }, { email: M.required }],
    [{ email: 'not-an-email' }, { email: M.invalidEmail }],
    [{ theme: 'blue', lang: 'de' }, { theme: M.invalidValue, lang: M.invalidValue }],
  ])('refuses %j with field messages', async (body, fields) => {
    const { token } = await member();
    const r = await call(t.app, 'PUT', '/api/v1/user/update', { token, body });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.invalidFields);
    expect(r.body.fields).toEqual(fields);
  });

  it('refuses a number the numbering plan does not have (pattern alone would pass it), in Russian when asked', async () => {
    const { token } = await member();
    const r = await call(t.app, 'PUT', '/api/v1/user/update', { token, body: { phone: '+1 555 000 0000' }, headers: { 'accept-language': 'ru' } });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ phone: 'Пожалуйста, проверьте номер телефона!' });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).body.phone).toBeNull();
  });

  it('needs a session', async () => {
    expect((await call(t.app, 'PUT', '/api/v1/user/update', { body: { name: 'x' } })).status).toBe(401);
  });

  it('keeps language and theme, and sign-in answers them', async () => {
    const { token, email } = await member();
    const r = await call(t.app, 'PUT', '/api/v1/user/update', { token, body: { lang: 'ru', theme: 'dark' } });
    expect(r.body).toMatchObject({ lang: 'ru', theme: 'dark' });
    const again = await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: STRONG_PASSWORD } });
    expect(again.body.user).toMatchObject({ preferences: { lang: 'ru', theme: 'dark' } });
  });
});

describe('e-mail change', () => {
  it('mails a code to the new address and changes the login only once that code is confirmed', async () => {
    const { token, email } = await member();
    const next = uniqueEmail('moved');
    const r = await call(t.app, 'PUT', '/api/v1/user/update', { token, body: { email: next.toUpperCase(), password: STRONG_PASSWORD } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ email, pendingEmail: next });
    const mail = await lastMail(t.app, next);
    expect(mail?.kind).toBe('email-change');
    // Not yet: the old e-mail still signs in, the new one does not.
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: next, password: STRONG_PASSWORD } })).status).toBe(400);

    const wrong = await call(t.app, 'POST', '/api/v1/settings/email/confirm', { token, body: { code: mail!.code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ code: M.invalidCode });

    const ok = await call(t.app, 'POST', '/api/v1/settings/email/confirm', { token, body: { code: mail!.code } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email: next, pendingEmail: null });
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: next, password: STRONG_PASSWORD } })).status).toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: STRONG_PASSWORD } })).status).toBe(400);
  });

  it("refuses at confirmation an address another account took meanwhile, and the login stays", async () => {
    const a = await member();
    const b = await member();
    await call(t.app, 'PUT', '/api/v1/user/update', { token: a.token, body: { email: b.email, password: STRONG_PASSWORD } });
    const code = (await lastMail(t.app, b.email))!;
    expect(code.kind).toBe('email-change');
    const r = await call(t.app, 'POST', '/api/v1/settings/email/confirm', { token: a.token, body: { code: code.code } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.emailTaken);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: a.token })).body.email).toBe(a.email);
  });
});

describe('avatar', () => {
  it('tells the type by the content', () => {
    expect(imageTypeOf(PNG)).toBe('image/png');
    expect(imageTypeOf(WEBP)).toBe('image/webp');
    expect(imageTypeOf(JPEG)).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageTypeOf(Buffer.from('GIF89a'))).toBeNull();
  });

  it('stores an image apart from the user row and serves it with caching headers', async () => {
    const { token, id } = await member();
    const r = await call(t.app, 'POST', '/api/v1/settings/avatar', { token, body: { image: WEBP.toString('base64') } });
    expect(r.status).toBe(200);
    const url = r.body.avatar as string;
    expect(url).toMatch(new RegExp(`^/api/v1/avatars/${id}\\?v=\\d+$`));
    const img = await t.app.inject({ method: 'GET', url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/webp');
    expect(img.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(img.rawPayload.equals(WEBP)).toBe(true);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(img.headers.etag) } });
    expect(again.statusCode).toBe(304);
    // The sign-in answer carries it, for the greeting.
    const { email } = { email: (await call(t.app, 'GET', '/api/v1/profile', { token })).body.email as string };
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: STRONG_PASSWORD } })).body.user).toMatchObject({ avatar: url });
  });

  it.each([
    ['a text file', Buffer.from('hello, I am not an image').toString('base64'), M.avatarInvalid],
    ['an SVG (script-capable)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64'), M.avatarInvalid],
    ['a PNG header padded past the limit', Buffer.concat([PNG, Buffer.alloc(200_001)]).toString('base64'), M.avatarTooLarge],
    ['not base64', '%%%%', M.avatarInvalid],
  ])('refuses %s with a clear message, and the old avatar stays', async (_name, image, text) => {
    const { token } = await member();
    const first = await call(t.app, 'POST', '/api/v1/settings/avatar', { token, body: { image: PNG.toString('base64') } });
    const r = await call(t.app, 'POST', '/api/v1/settings/avatar', { token, body: { image } });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ image: text });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).body.avatar).toBe(first.body.avatar);
  });

  it('answers 404 for a user without one', async () => {
    const { id } = await member();
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/avatars/${id}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/avatars/..%2f..' })).statusCode).toBe(404);
  });
});

describe('password and sessions', () => {
  it('lists the sessions, and "sign out other sessions" ends every other one', async () => {
    const { email, token } = await member();
    const other = await login(email, STRONG_PASSWORD, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' });
    const list = await call(t.app, 'GET', '/api/v1/settings/sessions', { token });
    expect(list.status).toBe(200);
    const items = list.body.items as Array<{ current: boolean; userAgent: string | null; lastUsedAt: string }>;
    // Confirming the e-mail ends the session registering started; confirming and this sign-in each started one.
    expect(items).toHaveLength(2);
    expect(items[0]!.current).toBe(true);
    expect(items.find((s) => !s.current)?.userAgent).toContain('Firefox');

    const end = await call(t.app, 'POST', '/api/v1/settings/sessions/end-others', { token });
    expect(end.body.message).toBe(M.otherSessionsEnded);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: other.token })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/refresh', { cookie: other.cookie, body: {} })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(200);
    expect(((await call(t.app, 'GET', '/api/v1/settings/sessions', { token })).body.items as unknown[]).length).toBe(1);
  });

  it('changes the password with the current one, ends the others, and mails a notice', async () => {
    const { email, token } = await member();
    const other = await login(email);
    const wrong = await call(t.app, 'POST', '/api/v1/settings/password', { token, body: { currentPassword: 'Wr0ng!pass', password: 'N3w!pass' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ currentPassword: M.wrongPassword });
    const weak = await call(t.app, 'POST', '/api/v1/settings/password', { token, body: { currentPassword: STRONG_PASSWORD, password: 'weak' } });
    expect(weak.body.fields).toEqual({ password: M.invalidPassword });

    const r = await call(t.app, 'POST', '/api/v1/settings/password', { token, body: { currentPassword: STRONG_PASSWORD, password: 'N3w!pass', signOutOthers: true } });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(M.passwordChanged);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: other.token })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(200);
    const notice = await lastMail(t.app, email);
    expect(notice?.kind).toBe('password-changed');
    // The notice says what happened: the others ended, this one kept.
    expect(notice?.text).toContain('Every other session was signed out; the one that changed it stays signed in.');
    expect(notice?.text).not.toContain('stay signed in: end them');
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: 'N3w!pass' } })).status).toBe(200);
  });

  it('ends the other sessions even when not asked, and the notice says so in Russian too', async () => {
    const { email, token } = await member();
    const other = await login(email);
    await call(t.app, 'POST', '/api/v1/settings/password', { token, body: { currentPassword: STRONG_PASSWORD, password: 'N3w!pass' } });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: other.token })).status).toBe(401);
    expect((await lastMail(t.app, email, 'password-changed'))?.text).toContain('Every other session was signed out; the one that changed it stays signed in.');

    const ru = await member();
    expect((await call(t.app, 'PUT', '/api/v1/user/update', { token: ru.token, body: { lang: 'ru' } })).status).toBe(200);
    await call(t.app, 'POST', '/api/v1/settings/password', { token: ru.token, body: { currentPassword: STRONG_PASSWORD, password: 'N3w!pass' } });
    const notice = await lastMail(t.app, ru.email, 'password-changed');
    expect(notice?.lang).toBe('ru');
    expect(notice?.text).toContain('Все остальные сеансы завершены; сеанс, в котором его сменили, продолжается.');
  });
});

describe('wallet replace and unlink', () => {
  async function withWallet() {
    const m = await member();
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet);
    const linked = await call(t.app, 'POST', '/api/v1/connect-mm', { token: m.token, body: { id: m.id, metaMaskAddress: wallet.address, message: proof.message, signature: proof.signature } });
    expect(linked.status).toBe(200);
    return { ...m, wallet };
  }

  it('replaces with both proofs (the new wallet and the password) and mails the change', async () => {
    const m = await withWallet();
    const next = newWallet();
    const proof = await siweSign(t.app, next);
    const r = await call(t.app, 'POST', '/api/v1/settings/wallet/replace', { token: m.token, body: { metaMaskAddress: next.address, ...proof, password: STRONG_PASSWORD } });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(M.walletReplaced);
    expect((r.body.user as { metaMaskAddress: string }).metaMaskAddress).toBe(next.address);
    const mail = await lastMail(t.app, m.email);
    expect(mail?.kind).toBe('wallet-changed');
    expect(mail?.text).toContain(next.address);
  });

  it('refuses without the owner proof, with a wrong password, or with a signature by another wallet', async () => {
    const m = await withWallet();
    const next = newWallet();
    const none = await call(t.app, 'POST', '/api/v1/settings/wallet/replace', { token: m.token, body: { metaMaskAddress: next.address, ...(await siweSign(t.app, next)) } });
    expect(none.status).toBe(400);
    expect(none.body.fields).toEqual({ password: M.ownerProofRequired });
    const wrong = await call(t.app, 'POST', '/api/v1/settings/wallet/replace', { token: m.token, body: { metaMaskAddress: next.address, ...(await siweSign(t.app, next)), password: 'Wr0ng!pass' } });
    expect(wrong.body.fields).toEqual({ password: M.wrongPassword });
    const forged = await siweSign(t.app, newWallet(), { address: next.address });
    const bad = await call(t.app, 'POST', '/api/v1/settings/wallet/replace', { token: m.token, body: { metaMaskAddress: next.address, message: forged.message, signature: forged.signature, password: STRONG_PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(M.siweSignature);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: m.token })).body.walletAddress).toBe(m.wallet.address);
  });

  it('unlinks with a mailed code; the code works once', async () => {
    const m = await withWallet();
    expect((await call(t.app, 'POST', '/api/v1/settings/owner-code', { token: m.token })).body.message).toBe(M.walletCodeSent);
    const code = (await lastMail(t.app, m.email))!;
    expect(code.kind).toBe('owner-code');
    const r = await call(t.app, 'POST', '/api/v1/settings/wallet/unlink', { token: m.token, body: { code: code.code } });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(M.walletUnlinked);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: m.token })).body.walletAddress).toBeNull();
    expect((await lastMail(t.app, m.email))?.kind).toBe('wallet-changed');
    const again = await call(t.app, 'POST', '/api/v1/settings/wallet/unlink', { token: m.token, body: { code: code.code } });
    expect(again.body.message).toBe(M.noWalletLinked);
  });
});
