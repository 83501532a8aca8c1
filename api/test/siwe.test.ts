import { apiMessages as M } from '@app/contracts';
import { getAddress } from 'ethers';
import { HOST, call, newWallet, register, siweSign, startTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A user with a known referral code, to invite wallets with. */
async function inviter() {
  const r = await register(t.app);
  const profile = await call(t.app, 'GET', '/api/v1/profile', { token: r.token });
  return { ...r, code: profile.body.referralCode as string, id: profile.body.id as string };
}

describe('GET /siwe/nonce', () => {
  it('issues a fresh alphanumeric nonce for chain 1 with a short life', async () => {
    const a = await call(t.app, 'GET', '/api/v1/siwe/nonce');
    const b = await call(t.app, 'GET', '/api/v1/siwe/nonce');
    expect(a.status).toBe(200);
    expect(a.body.nonce).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(a.body.nonce).not.toBe(b.body.nonce);
    expect(a.body.chainId).toBe(1);
    const life = Date.parse(a.body.expiresAt as string) - Date.parse(a.body.issuedAt as string);
    expect(life).toBe(300_000);
    expect(a.headers['cache-control']).toBe('no-store');
  });
});

describe('POST /login-v2', () => {
  it('a first wallet sign-in with an invite creates the account under that referrer', async () => {
    const ref = await inviter();
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet);
    const r = await call(t.app, 'POST', '/api/v1/login-v2', {
      body: { invite: ref.code, metaMaskAddress: wallet.address.toLowerCase(), source: 'twitter', ...proof },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toEqual({ id: expect.any(String), name: null, login: wallet.address, role: 'user', metaMaskAddress: wallet.address, avatar: null, preferences: null });
    expect(r.body.token).toEqual(expect.any(String));
    expect(String(r.headers['set-cookie'])).toMatch(/refresh_token=.*HttpOnly/);
    // The referrer sees the new member.
    const refs = await call(t.app, 'GET', '/api/v1/referrals', { token: ref.token });
    expect(refs.body.members).toBe(1);
    // The next sign-in finds the same account, no invite needed.
    const again = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } });
    expect(again.status).toBe(200);
    expect((again.body.user as { id: string }).id).toBe((r.body.user as { id: string }).id);
  });

  it('refuses an unknown wallet without an invite, and a bad invite', async () => {
    const wallet = newWallet();
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(M.walletNotRegistered);
    const bad = await call(t.app, 'POST', '/api/v1/login-v2', {
      body: { invite: 'nope', metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(M.invalidInvite);
  });

  it('refuses a replayed nonce', async () => {
    const ref = await inviter();
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet);
    const body = { invite: ref.code, metaMaskAddress: wallet.address, ...proof };
    expect((await call(t.app, 'POST', '/api/v1/login-v2', { body })).status).toBe(200);
    const replay = await call(t.app, 'POST', '/api/v1/login-v2', { body });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ message: M.siweNonce, code: 'SIWE_NONCE' });
  });

  it('refuses a nonce the server never issued', async () => {
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet, { nonce: 'madeUpNonce12345' });
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof } });
    expect(r.body.code).toBe('SIWE_NONCE');
  });

  it('refuses an expired message', async () => {
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet, { expirationTime: new Date(Date.now() - 1000).toISOString() });
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: M.siweExpired, code: 'SIWE_EXPIRED' });
  });

  it('refuses a message issued long ago', async () => {
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet, { issuedAt: new Date(Date.now() - 3600_000).toISOString() });
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof } });
    expect(r.body.code).toBe('SIWE_EXPIRED');
  });

  it.each([
    ['a host outside the brand allowlist', { domain: 'evil.example' }, {}],
    ['another port than the page it came from', { domain: 'localhost:9999' }, {}],
    ['an allowed brand host that is not where the request came from', { domain: '127.0.0.1:8080' }, {}],
    ['a URI on another host', { uri: 'https://evil.example/login' }, {}],
    ['a request from another origin', {}, { origin: 'https://evil.example' }],
  ])('refuses a wrong domain: %s', async (_name, overrides, headers) => {
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet, overrides);
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof }, headers });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: M.siweDomain, code: 'SIWE_DOMAIN' });
  });

  it('takes the brand host from Host when the browser sent no Origin', async () => {
    const ref = await inviter();
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login-v2',
      headers: { host: HOST },
      payload: { invite: ref.code, metaMaskAddress: wallet.address, ...proof },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong chain id', async () => {
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet, { chainId: 137 });
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...proof } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: M.siweChain, code: 'SIWE_CHAIN' });
  });

  it('refuses a signature by another key', async () => {
    const victim = newWallet();
    const attacker = newWallet();
    // The attacker writes the victim's address into the message but can only sign with its own key.
    const proof = await siweSign(t.app, attacker, { address: victim.address });
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: victim.address, ...proof } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: M.siweSignature, code: 'SIWE_SIGNATURE' });
  });

  it('refuses a valid proof for another address than the one named', async () => {
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet);
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: newWallet().address, ...proof } });
    expect(r.body.code).toBe('SIWE_SIGNATURE');
  });

  it('validates its fields', async () => {
    const r = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: 'me', message: 'x'.repeat(5000), signature: '0x12' } });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ metaMaskAddress: M.metamaskInvalid, message: 'Max length is 4096!', signature: M.siweSignature });
    const garbage = await call(t.app, 'POST', '/api/v1/login-v2', {
      body: { metaMaskAddress: newWallet().address, message: 'hello', signature: `0x${'ab'.repeat(65)}` },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('SIWE_INVALID');
  });
});

describe('POST /connect-mm', () => {
  it('links a wallet proven by its signature, once', async () => {
    const u = await register(t.app);
    const wallet = newWallet();
    const id = (u.user as { id: string }).id;
    const r = await call(t.app, 'POST', '/api/v1/connect-mm', { token: u.token, body: { id, metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(M.metamaskLinked);
    expect(r.body.user).toMatchObject({ id, metaMaskAddress: getAddress(wallet.address) });
    expect((await call(t.app, 'GET', '/api/v1/profile', { token: u.token })).body.walletAddress).toBe(wallet.address);
    // Now the wallet signs this user in.
    const login = await call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } });
    expect((login.body.user as { id: string }).id).toBe(id);
  });

  it('refuses a wallet linked to another account, and a second wallet', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const wallet = newWallet();
    const idA = (a.user as { id: string }).id;
    const idB = (b.user as { id: string }).id;
    await call(t.app, 'POST', '/api/v1/connect-mm', { token: a.token, body: { id: idA, metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } });
    const taken = await call(t.app, 'POST', '/api/v1/connect-mm', { token: b.token, body: { id: idB, metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(M.walletTaken);
    const other = newWallet();
    const second = await call(t.app, 'POST', '/api/v1/connect-mm', { token: a.token, body: { id: idA, metaMaskAddress: other.address, ...(await siweSign(t.app, other)) } });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(M.walletAlreadyLinked);
  });

  it('requires the signed-in user, its own id and a proof', async () => {
    const u = await register(t.app);
    const wallet = newWallet();
    const proof = await siweSign(t.app, wallet);
    expect((await call(t.app, 'POST', '/api/v1/connect-mm', { body: { id: 'x', metaMaskAddress: wallet.address, ...proof } })).status).toBe(401);
    const foreign = await call(t.app, 'POST', '/api/v1/connect-mm', { token: u.token, body: { id: 'someone-else', metaMaskAddress: wallet.address, ...proof } });
    expect(foreign.status).toBe(403);
    const noProof = await call(t.app, 'POST', '/api/v1/connect-mm', { token: u.token, body: { id: (u.user as { id: string }).id, metaMaskAddress: wallet.address } });
    expect(noProof.status).toBe(400);
    expect(noProof.body.fields).toEqual({ message: M.required, signature: M.required });
  });
});

describe('POST /register with a wallet', () => {
  it('refuses to link it: a wallet is linked only after the e-mail is confirmed', async () => {
    const wallet = newWallet();
    const r = await call(t.app, 'POST', '/api/v1/register', {
      body: { login: `w.${Date.now()}@example.com`, password: 'Str0ng!pass', metaMaskAddress: wallet.address, ...(await siweSign(t.app, wallet)) },
    });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ metaMaskAddress: M.walletAfterConfirm });
  });
});
