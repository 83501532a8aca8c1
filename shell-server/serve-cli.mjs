// Serves one deployable's build: what each front-end container runs.
//   node shell-server/serve-cli.mjs remote --dir mf-pools/dist --port 3003
//   node shell-server/serve-cli.mjs shell --dir shell/dist --port 8080 --remotes-dir /config --api-url http://api:4000
// --api-url (and --operator-api-url) may list several replicas, comma-separated: requests are spread over them.
// The shell reads its brands from BRANDS_DIR (a folder of brand folders; default: the repository's brands/).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openBrands } from './brand-page.mjs';
import { serveRemote, serveShell } from './serve.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string', default: process.env.HOST ?? '127.0.0.1' },
    'remotes-dir': { type: 'string', default: process.env.REMOTES_DIR ?? join(repoRoot, 'shell/remotes') },
    'api-url': { type: 'string', default: process.env.API_URL },
    // The operator API (its internal port) and the host names the console is served on.
    'operator-api-url': { type: 'string', default: process.env.OPERATOR_API_URL },
    'operator-hosts': { type: 'string', default: process.env.OPERATOR_HOSTS ?? '' },
  },
});
const kind = positionals[0];
if ((kind !== 'remote' && kind !== 'shell') || !values.dir || !values.port) {
  console.error('usage: serve-cli.mjs remote|shell --dir DIR --port PORT [--host H] [--remotes-dir D] [--api-url U] [--operator-api-url U --operator-hosts H,…]');
  process.exit(2);
}
const port = Number(values.port);
/** One address, or several replicas comma-separated. */
const urlList = (value) => (value ? value.split(',').map((u) => u.trim()).filter(Boolean) : undefined);
if (kind === 'remote') {
  await serveRemote({ dir: values.dir, port, host: values.host });
} else {
  const brands = await openBrands(values.dir, process.env.BRANDS_DIR ?? join(repoRoot, 'brands'));
  await serveShell({ dir: values.dir, port, host: values.host, remotesDir: values['remotes-dir'], brands, apiUrl: urlList(values['api-url']), operatorApiUrl: urlList(values['operator-api-url']), operatorHosts: values['operator-hosts'].split(',').map((h) => h.trim().toLowerCase()).filter(Boolean), production: process.env.NODE_ENV === 'production' });
}
console.log(`${kind} ${values.dir} on http://${values.host}:${port}`);
