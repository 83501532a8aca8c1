import { apiMessages as M } from '@app/contracts';
import {
  STRONG_PASSWORD,
  call,
  lastMail,
  refreshCookie,
  register,
  signUp,
  startTestApp,
  uniqueEmail,
  type TestApp,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('POST /register', () => {
  it('creates an account without a role, answers user and tokens, sets the refresh cookie, mails a code', async () => {
    const email = uniqueEmail();
    const r = await call(t.app, 'POST', '/api/v1/register', {
      body: { login: email.toUpperCase(), password: STRONG_PASSWORD, metaMaskAddress: '', source: 'google' },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ id: expect.any(String), name: null, login: email, role: null, metaMaskAddress: null, avatar: null, preferences: null });
    expect(r.body.token).toEqual(expect.any(String));
    expect(r.body.refreshToken).toEqual(expect.any(String));
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toContain(`refresh_token=${r.body.refreshToken as string}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api/);
    expect(cookie).not.toMatch(/Secure/);
    const mail = await lastMail(t.app, email);
    expect(mail?.kind).toBe('approve');
    expect(mail?.code).toMatch(/^\d{6}$/);
    expect(mail?.text).toContain(mail?.code as string);
  });

  it.each([
    [{}, { login: M.required, password: M.required }],
    [{ login: 'not-an-email', password: STRONG_PASSWORD }, { login: M.invalidEmail }],
    [{ login: 42, password: STRONG_PASSWORD }, { login: M.invalidEmail }],
    [{ login: `${'a'.repeat(250)}@example.com`, password: STRONG_PASSWORD }, { login: 'Max length is 254!' }],
    [{ login: uniqueEmail(), password: 'short' }, { password: M.invalidPassword }],
    [{ login: uniqueEmail(), password: 'alllowercase1!' }, { password: M.invalidPassword }],
    [{ login: uniqueEmail(), password: 'NoSpecial123' }, { password: M.invalidPassword }],
    [{ login: uniqueEmail(), password: 'Aa!'.repeat(7) }, { password: 'Max length is 20!' }],
    [{ login: uniqueEmail(), password: ['x'] }, { password: M.invalidPassword }],
    [{ login: uniqueEmail(), password: STRONG_PASSWORD, metaMaskAddress: '0x123' }, { metaMaskAddress: M.metamaskInvalid }],
    [{ login: uniqueEmail(), password: STRONG_PASSWORD, source: 's'.repeat(201) }, { source: 'Max length is 200!' }],
  ])('refuses %j with field messages', async (body, fields) => {
    const r = await call(t.app, 'POST', '/api/v1/register', { body });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.invalidFields);
    expect(r.body.fields).toEqual(fields);
  });

  it('refuses to link a wallet before the e-mail is confirmed', async () => {
    const r = await call(t.app, 'POST', '/api/v1/register', {
      body: { login: uniqueEmail(), password: STRONG_PASSWORD, metaMaskAddress: '0x' + '1'.repeat(40) },
    });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ metaMaskAddress: M.walletAfterConfirm });
  });

  it("answers 'Incorrect login' for an e-mail that has an account", async () => {
    const { email } = await register(t.app);
    const r = await call(t.app, 'POST', '/api/v1/register', { body: { login: email, password: STRONG_PASSWORD } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.incorrectLogin);
  });

  it('answers in Russian when asked', async () => {
    const r = await call(t.app, 'POST', '/api/v1/register', {
      body: { login: 'bad', password: STRONG_PASSWORD },
      headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
    });
    expect(r.body.message).toBe('Не все поля заполнены правильно');
    expect(r.body.fields).toEqual({ login: 'Пожалуйста, проверьте e-mail' });
    const long = await call(t.app, 'POST', '/api/v1/register', {
      body: { login: uniqueEmail(), password: 'Aa!'.repeat(7), lang: 'ru' },
    });
    expect(long.body.fields).toEqual({ password: 'Максимальная длина 20!' });
  });

  it('mails in the language of the user', async () => {
    const email = uniqueEmail('ru');
    await call(t.app, 'POST', '/api/v1/register', { body: { login: email, password: STRONG_PASSWORD, lang: 'ru' } });
    const mail = await lastMail(t.app, email);
    expect(mail?.lang).toBe('ru');
    expect(mail?.subject).toContain('подтвердите e-mail');
  });

  it('answers 400, never 500, to a body that is not JSON or not an object', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/register', headers: { 'content-type': 'application/json' }, payload: '{"login":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: M.invalidFields, code: 'BAD_REQUEST' });
    const arr = await call(t.app, 'POST', '/api/v1/register', { body: [1, 2] });
    expect(arr.status).toBe(400);
    // zod's own English text (zod/mini has it only through the locale the server loads).
    expect(arr.body.fields).toEqual({ '': 'Invalid input: expected object, received array' });
    const text = await t.app.inject({ method: 'POST', url: '/api/v1/register', headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe(M.invalidFields);
    const xml = await t.app.inject({ method: 'POST', url: '/api/v1/register', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().message).toBe(M.unsupportedMediaType);
  });
});

describe('POST /login', () => {
  it('signs in with the right password and answers user and tokens', async () => {
    const { email, user } = await register(t.app);
    const r = await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: STRONG_PASSWORD } });
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual(user);
    expect(refreshCookie(r.headers['set-cookie'])).toBe(`refresh_token=${r.body.refreshToken as string}`);
  });

  it("answers 'Invalid password or login' alike for a wrong password and an unknown e-mail", async () => {
    const { email } = await register(t.app);
    const wrong = await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: 'Wrong!pass1' } });
    const unknown = await call(t.app, 'POST', '/api/v1/login', { body: { login: uniqueEmail(), password: 'Wrong!pass1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: M.invalidLogin, code: 'INVALID_LOGIN' });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('validates its fields', async () => {
    const r = await call(t.app, 'POST', '/api/v1/login', { body: { login: '', password: 'x'.repeat(200) } });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ login: M.required, password: 'Max length is 128!' });
  });
});

describe('sessions', () => {
  it('GET /profile needs a valid bearer token', async () => {
    const { token, email } = await signUp(t.app);
    const ok = await call(t.app, 'GET', '/api/v1/profile', { token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email, name: null, phone: null, telegram: null, avatar: null, walletAddress: null, role: null, lang: 'en' });
    for (const bad of [undefined, 'garbage', `${token}x`]) {
      const r = await call(t.app, 'GET', '/api/v1/profile', { token: bad });
      expect(r.status).toBe(401);
      expect(r.body.message).toBe(M.loginRequired);
    }
  });

  it('rotates the refresh token from the body and from the cookie', async () => {
    const { token, refreshToken } = await register(t.app);
    const first = await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(refreshToken);
    expect(first.body.token).toEqual(expect.any(String));
    const cookie = refreshCookie(first.headers['set-cookie']);
    // The browser sends no body: the cookie carries the token.
    const second = await t.app.inject({ method: 'POST', url: '/api/v1/refresh', headers: { cookie: cookie as string } });
    expect(second.statusCode).toBe(200);
    expect(second.json().refreshToken).not.toBe(first.body.refreshToken);
    // The old access token still works: the session lives on.
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(200);
  });

  it('reuse of a spent refresh token ends the whole family', async () => {
    const { token, refreshToken } = await register(t.app);
    const next = await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken } });
    expect(next.status).toBe(200);
    const replay = await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken } });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ message: M.sessionExpired, code: 'REFRESH_TOKEN_REUSED' });
    // The legitimate holder's newer token and every access token of the family are dead too.
    const afterwards = await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken: next.body.refreshToken } });
    expect(afterwards.status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: next.body.token as string })).status).toBe(401);
  });

  it('refuses a refresh without or with an unknown token', async () => {
    expect((await call(t.app, 'POST', '/api/v1/refresh')).status).toBe(401);
    const r = await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken: 'nope' } });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe(M.sessionExpired);
  });

  it('POST /logout ends the session and clears the cookie', async () => {
    const { token, refreshToken } = await register(t.app);
    const r = await call(t.app, 'POST', '/api/v1/logout', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: M.loggedOut });
    expect(String(r.headers['set-cookie'])).toMatch(/refresh_token=;/);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken } })).status).toBe(401);
  });

  it('POST /logout with only the refresh cookie ends that session', async () => {
    const { token, refreshToken } = await register(t.app);
    const r = await call(t.app, 'POST', '/api/v1/logout', { cookie: `refresh_token=${refreshToken}` });
    expect(r.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(401);
  });
});

describe('e-mail confirmation', () => {
  it('POST /confirm-login with the mailed code gives the role and signs in', async () => {
    const { email } = await signUp(t.app);
    const code = (await lastMail(t.app, email))?.code as string;
    const r = await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: email, code } });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ login: email, role: 'user' });
    expect(r.body.token).toEqual(expect.any(String));
    // Single use.
    const again = await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: email, code } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(M.invalidCode);
  });

  it('refuses a wrong code, and the code dies after five wrong tries', async () => {
    const { email } = await signUp(t.app);
    const code = (await lastMail(t.app, email))?.code as string;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: email, code: wrong } });
      expect(r.status).toBe(400);
      expect(r.body.fields).toEqual({ code: M.invalidCode });
    }
    const right = await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: email, code } });
    expect(right.status).toBe(400);
  });

  it('POST /send-approve-email mails a new code and the old one stops working', async () => {
    const { email } = await signUp(t.app);
    const old = (await lastMail(t.app, email))?.code as string;
    const r = await call(t.app, 'POST', '/api/v1/send-approve-email', { body: { login: email } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: M.approveSent });
    const fresh = (await lastMail(t.app, email))?.code as string;
    if (fresh !== old) {
      expect((await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: email, code: old } })).status).toBe(400);
    }
    expect((await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: email, code: fresh } })).status).toBe(200);
  });

  it('validates confirm-login and send-approve-email fields', async () => {
    const a = await call(t.app, 'POST', '/api/v1/confirm-login', { body: { login: 'x' } });
    expect(a.body.fields).toEqual({ login: M.invalidEmail, code: M.required });
    const b = await call(t.app, 'POST', '/api/v1/send-approve-email', { body: {} });
    expect(b.body.fields).toEqual({ login: M.required });
  });
});

describe('password recovery', () => {
  it('answers identically for a known and an unknown e-mail, and mails only the known one', async () => {
    const { email } = await register(t.app);
    const unknown = uniqueEmail('nobody');
    const a = await call(t.app, 'POST', '/api/v1/send-password-recovery', { body: { login: email } });
    const b = await call(t.app, 'POST', '/api/v1/send-password-recovery', { body: { login: unknown } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(a.body).toEqual({ message: M.recoverySent });
    const strip = (h: Record<string, unknown>) => Object.keys(h).filter((k) => !['date', 'x-request-id', 'content-length'].includes(k)).sort();
    expect(strip(b.headers)).toEqual(strip(a.headers));
    expect((await lastMail(t.app, email))?.kind).toBe('recovery');
    expect(await lastMail(t.app, unknown)).toBeUndefined();
  });

  it('POST /change-password-by-code sets the password and ends every session', async () => {
    const { email, token, refreshToken } = await register(t.app);
    await call(t.app, 'POST', '/api/v1/send-password-recovery', { body: { login: email } });
    const code = (await lastMail(t.app, email))?.code as string;
    const weak = await call(t.app, 'POST', '/api/v1/change-password-by-code', { body: { login: email, password: 'weak', code } });
    expect(weak.body.fields).toEqual({ password: M.invalidPassword });
    const r = await call(t.app, 'POST', '/api/v1/change-password-by-code', { body: { login: email, password: 'N3w!password', code } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: M.passwordChanged });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/refresh', { body: { refreshToken } })).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: STRONG_PASSWORD } })).status).toBe(400);
    expect((await call(t.app, 'POST', '/api/v1/login', { body: { login: email, password: 'N3w!password' } })).status).toBe(200);
    expect((await lastMail(t.app, email))?.kind).toBe('password-changed');
    const reuse = await call(t.app, 'POST', '/api/v1/change-password-by-code', { body: { login: email, password: 'Oth3r!pass', code } });
    expect(reuse.status).toBe(400);
    expect(reuse.body.message).toBe(M.invalidCode);
  });

  it('refuses a code for an unknown e-mail with the same message', async () => {
    const r = await call(t.app, 'POST', '/api/v1/change-password-by-code', { body: { login: uniqueEmail(), password: 'N3w!password', code: '123456' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.invalidCode);
  });
});
