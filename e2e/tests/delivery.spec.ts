import { expect, test } from '@playwright/test';
import { baseURL, ports } from '../stack.config';

const authOrigin = `http://localhost:${ports['mf-auth']}`;

interface MfManifest {
  metaData: { remoteEntry: { name: string } };
  exposes: { assets: { js: { sync: string[] } } }[];
}

/** The headers of one GET, with the given Accept-Encoding (Playwright still decodes the body). */
async function get(request: import('@playwright/test').APIRequestContext, url: string, headers: Record<string, string> = {}) {
  const response = await request.get(url, { headers: { 'accept-encoding': 'identity', ...headers }, maxRedirects: 0 });
  return { status: response.status(), headers: response.headers(), body: await response.body() };
}

test.describe('compression and caching', () => {
  test('files are sent brotli, gzip or plain as Accept-Encoding asks, and decode to the same bytes', async ({ request }) => {
    for (const url of [`${baseURL}/main.js`, `${authOrigin}/remoteEntry.js`, `${baseURL}/sign-in`]) {
      const plain = await get(request, url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      const br = await get(request, url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers['vary'], url).toMatch(/accept-encoding/i);
      const gz = await get(request, url, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      // The page's ETag is per response body; the files' bytes are the build's.
      expect(br.body.equals(plain.body), url).toBe(true);
      expect(gz.body.equals(plain.body), url).toBe(true);
      expect(Number(br.headers['content-length']), url).toBeLessThan(plain.body.length / 2);
    }
  });

  test('hashed files are immutable; main.js and remoteEntry.js are revalidated', async ({ request }) => {
    // The shell's hashed chunk a cabinet page starts with (its layout, an early script).
    const page = (await get(request, `${baseURL}/cabinet/dashboard`)).body.toString();
    const layout = /src="\/(cabinet-layout\.[0-9a-f]{8}\.js)"/.exec(page)?.[1];
    expect(layout).toBeTruthy();
    expect((await get(request, `${baseURL}/${layout}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const manifest = JSON.parse((await get(request, `${authOrigin}/mf-manifest.json`)).body.toString()) as MfManifest;
    const chunks = manifest.exposes.flatMap((e) => e.assets.js.sync);
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) {
      const { status, headers } = await get(request, `${authOrigin}/${chunk}`, { 'accept-encoding': 'br' });
      expect(status, chunk).toBe(200);
      expect(headers['cache-control'], chunk).toBe('public, max-age=31536000, immutable');
    }
    for (const url of [`${baseURL}/main.js`, `${baseURL}/main.js?v=0000`, `${authOrigin}/${manifest.metaData.remoteEntry.name}`]) {
      expect((await get(request, url)).headers['cache-control'], url).toBe('no-cache');
    }
    // The page asks for main.js by a version naming its content: that URL never changes.
    const signIn = (await get(request, `${baseURL}/sign-in`)).body.toString();
    const versioned = /<script defer="defer" src="(\/main\.js\?v=[0-9a-f]+)">/.exec(signIn)?.[1];
    expect(versioned).toBeTruthy();
    expect(signIn).toContain(`<link rel="preload" as="script" href="${versioned}">`);
    const main = await get(request, `${baseURL}${versioned}`);
    expect(main.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(main.body.equals((await get(request, `${baseURL}/main.js`)).body)).toBe(true);
  });

  test('the page, remotes.json and mf-manifest.json are revalidated by ETag', async ({ request }) => {
    for (const url of [`${baseURL}/sign-in`, `${baseURL}/ru/cabinet/dashboard`, `${baseURL}/remotes.json`, `${authOrigin}/mf-manifest.json`]) {
      for (const encoding of ['identity', 'br']) {
        const first = await get(request, url, { 'accept-encoding': encoding });
        expect(first.status, url).toBe(200);
        expect(first.headers['cache-control'], url).toBe('no-cache');
        const etag = first.headers['etag'];
        expect(etag, url).toBeTruthy();
        const again = await get(request, url, { 'accept-encoding': encoding, 'if-none-match': etag! });
        expect(again.status, `${url} revalidated`).toBe(304);
        expect(again.body.length).toBe(0);
        const stale = await get(request, url, { 'accept-encoding': encoding, 'if-none-match': '"not-this-one"' });
        expect(stale.status, url).toBe(200);
      }
    }
  });
});
