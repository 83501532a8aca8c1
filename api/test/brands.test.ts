import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, mailCatcher, newWallet, signUp, siweSign, startTestApp, uniqueEmail, type TestApp } from './helpers';

// Issue 25: the API takes its brands from folders (BRANDS_DIR), watched, and every mail and every
// SIWE check follows the brand the request came through.
const shipped = path.resolve(__dirname, '../../brands');
const brandsDir = mkdtempSync(path.join(os.tmpdir(), 'api-brands-'));
for (const id of ['default', 'aurora']) cpSync(path.join(shipped, id), path.join(brandsDir, id), { recursive: true });
const PUBLIC_URL = 'https://invest.example';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ BRANDS_DIR: brandsDir, PUBLIC_URL });
});
afterAll(async () => {
  t.app.services.config.brands.close();
  await t.close();
});

async function newestMail(to: string) {
  await t.app.services.background.idle();
  await t.app.services.mailer.flush();
  return (await (await mailCatcher()).mailsTo(to))[0];
}

describe('issue 25: brands from their folders', () => {
  it('a confirmation mail goes from the brand\'s sender, with its title, colour, logo and links to its own host, never the request\'s Origin', async () => {
    const email = uniqueEmail('aurora');
    await signUp(t.app, email);
    // A sign-up through one of aurora's hosts, at a port and scheme of the request's own.
    const other = uniqueEmail('aurora2');
    const r = await call(t.app, 'POST', '/api/v1/register', { body: { login: other, password: 'Str0ng!pass' }, headers: { host: 'aurora.test:6666', origin: 'http://aurora.test:6666' } });
    expect(r.status).toBe(200);
    const mail = await newestMail(other);
    const aurora = JSON.parse(readFileSync(path.join(brandsDir, 'aurora/brand.json'), 'utf8'));
    expect(mail?.from?.[0]).toEqual({ address: aurora.mail.senderAddress, name: aurora.mail.senderName });
    expect(mail?.subject).toContain('Aurora Capital');
    // PUBLIC_URL's scheme and port on the brand's first host: the brand's own address.
    expect(mail?.text).toContain('https://aurora.localhost/');
    expect(mail?.text).not.toContain('aurora.test');
    expect(mail?.html).toContain(`background:${aurora.theme.light.primary}`);
    expect(mail?.html).toContain('src="https://aurora.localhost/brand/logo.svg"');
    // The default brand's mail: its own sender and the public address.
    const plain = await newestMail(email);
    const def = JSON.parse(readFileSync(path.join(brandsDir, 'default/brand.json'), 'utf8'));
    expect(plain?.from?.[0]).toEqual({ address: def.mail.senderAddress, name: def.mail.senderName });
    expect(plain?.text).toContain(`${PUBLIC_URL}/`);
  });

  it('SIWE takes a brand added to the folder from the next request, with no restart', async () => {
    const wallet = newWallet();
    const host = 'nova.test:8080';
    const attempt = async () => {
      const { message, signature } = await siweSign(t.app, wallet, { domain: host, uri: `http://${host}` });
      return call(t.app, 'POST', '/api/v1/login-v2', { body: { metaMaskAddress: wallet.address, message, signature }, headers: { host, origin: `http://${host}` } });
    };
    expect((await attempt()).body.code).toBe('SIWE_DOMAIN');
    const dir = path.join(brandsDir, 'nova');
    cpSync(path.join(shipped, 'default'), dir, { recursive: true });
    const config = JSON.parse(readFileSync(path.join(dir, 'brand.json'), 'utf8'));
    writeFileSync(path.join(dir, 'brand.json'), JSON.stringify({ ...config, hosts: ['nova.test'], title: 'Nova' }));
    t.app.services.config.brands.reload();
    // Past the domain check: whatever the sign-in says next, it is not that the site is unknown.
    const ok = await attempt();
    expect(ok.body.code).not.toBe('SIWE_DOMAIN');
    expect(ok.status).toBeLessThan(500);
  });
});
