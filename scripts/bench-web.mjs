// npm run bench:web — what a first visit downloads. Builds in production mode, runs the site on
// its own ports, loads the home page /, /sign-in and (signed in) /cabinet/dashboard and /cabinet/refferal in
// Chromium with an empty cache, and prints gzipped JS, split into shell, shared libraries, MF
// runtime, the remote's own code and other libraries (by the modules webpack put in each file),
// and the page itself (its HTML, with the CSS inlined).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot, frontends } from '../shared/build/index.mjs';
import { startStack } from './stack.mjs';

const BUDGET_SIGN_IN_JS = 180 * 1024;
const offset = Number(process.env.BENCH_PORT_OFFSET ?? 6000);
const ports = { shell: 8080 + offset, 'mf-auth': 3001 + offset, 'mf-cabinet': 3002 + offset, 'mf-pools': 3003 + offset, 'mf-referral': 3004 + offset, 'mf-dao': 3005 + offset, api: 4000 + offset, chain: 8545 + offset, mailSmtp: 1025 + offset, mailInbox: 1080 + offset };
const statsDir = mkdtempSync(join(tmpdir(), 'bench-web-stats-'));

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs'), '--stats', statsDir], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
} else {
  console.error('--no-build needs a stats dir: build with `node scripts/build.mjs --stats DIR` and pass BENCH_STATS=DIR');
}
const stats = process.env.BENCH_STATS ?? statsDir;

const SHARED = /node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|rxjs|jotai|single-spa|single-spa-react)\/|shared\/singletons\//;
const MF = /node_modules\/@module-federation\//;
const ETHERS = /node_modules\/(ethers|@noble|@adraffy|siwe)\//;

/** For each built file: the share of its module bytes per category. */
function fileCategories() {
  const byFile = new Map();
  for (const app of Object.keys(frontends)) {
    const { chunks } = JSON.parse(readFileSync(join(stats, `${app}.json`), 'utf8'));
    for (const chunk of chunks) {
      const weights = {};
      for (const m of chunk.modules) {
        const name = m.name;
        const cat = MF.test(name) || /webpack\/runtime|federation/.test(name) ? 'MF runtime'
          : SHARED.test(name) ? 'shared libraries'
          : ETHERS.test(name) ? 'ethers'
          : /node_modules\//.test(name) ? 'other libraries'
          : app === 'shell' ? 'shell' : 'remote code';
        weights[cat] = (weights[cat] ?? 0) + (m.size || 1);
      }
      for (const file of chunk.files) byFile.set(`${app}/${file}`, weights);
    }
  }
  return byFile;
}

function appOfPort(port) {
  return Object.entries(ports).find(([, p]) => p === port)?.[0];
}

async function measure(browser, url, signIn) {
  const context = await browser.newContext();
  if (signIn) await signIn(context.request);
  const page = await context.newPage();
  const files = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return;
    try {
      const body = await response.body();
      const u = new URL(response.url());
      files.push({ app: appOfPort(Number(u.port)), file: u.pathname.slice(1), type, gz: gzipSync(body, { level: 9 }).length });
    } catch {
      /* a response without a body */
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator('h1').first().waitFor();
  await context.close();
  return files;
}

const cats = ['shell', 'shared libraries', 'MF runtime', 'remote code', 'other libraries', 'ethers'];
function split(files, byFile) {
  const out = Object.fromEntries(cats.map((c) => [c, 0]));
  let css = 0;
  for (const f of files) {
    // The page's stylesheet is inlined in its HTML: both are counted together.
    if (f.type === 'stylesheet' || f.type === 'document') {
      css += f.gz;
      continue;
    }
    const weights = byFile.get(`${f.app}/${f.file}`) ?? { [f.app === 'shell' ? 'shell' : 'remote code']: 1 };
    const total = Object.values(weights).reduce((a, b) => a + b, 0);
    for (const [cat, w] of Object.entries(weights)) out[cat] += (f.gz * w) / total;
  }
  return { ...out, js: files.filter((f) => f.type === 'script').reduce((a, f) => a + f.gz, 0), css, count: files.length };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const { chromium } = await import('@playwright/test');
const stack = await startStack({ ports, dataDir: mkdtempSync(join(tmpdir(), 'bench-web-data-')), apiEnv: { NODE_ENV: 'test', RATE_LIMIT_MULTIPLIER: '1000' }, log: () => undefined });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  const byFile = fileCategories();
  const base = `http://localhost:${ports.shell}`;
  const signIn = async (request) => {
    // A new account for each signed-in page: a mailed code confirms one account once.
    const login = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await request.post(`${base}/api/v1/register`, { data: { login, password: 'Secret#123' } });
    // The code, from the mail catcher's inbox (MailDev's REST API), once the mail has arrived.
    let code;
    for (let i = 0; !code && i < 50; i++) {
      const mails = await (await request.get(`${stack.mailInbox}/api/email`)).json();
      code = /\b(\d{6})\b/.exec(mails.findLast((m) => m.to.some((a) => a.address === login))?.text ?? '')?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 200));
    }
    await request.post(`${base}/api/v1/confirm-login`, { data: { login, code } });
  };
  const pages = [
    ['/sign-in', await measure(browser, `${base}/sign-in`)],
    ['/', await measure(browser, `${base}/`)],
    ['/cabinet/dashboard', await measure(browser, `${base}/cabinet/dashboard`, signIn)],
    ['/cabinet/refferal', await measure(browser, `${base}/cabinet/refferal`, signIn)],
  ];
  const rows = pages.map(([name, files]) => [name, split(files, byFile)]);
  if (process.argv.includes('--files')) {
    for (const [name, files] of pages) {
      console.log(`\n${name}`);
      for (const f of [...files].sort((a, b) => b.gz - a.gz)) console.log(`  ${kb(f.gz).padStart(9)}  ${f.app}/${f.file}`);
    }
  }
  console.log('\nFirst load, gzip -9, empty cache\n');
  console.log(`| page | ${cats.join(' | ')} | JS total | HTML with CSS | files |`);
  console.log(`|---|${cats.map(() => '---:').join('|')}|---:|---:|---:|`);
  for (const [name, r] of rows) console.log(`| ${name} | ${cats.map((c) => kb(r[c])).join(' | ')} | **${kb(r.js)}** | ${kb(r.css)} | ${r.count} |`);
  const signInJs = rows[0][1].js;
  console.log(`\n/sign-in JS ${kb(signInJs)} against a budget of ${kb(BUDGET_SIGN_IN_JS)}: ${signInJs <= BUDGET_SIGN_IN_JS ? 'within' : 'OVER'}`);
  // The home page is a visitor's first page too: it keeps to the sign-in page's budget.
  const homeJs = rows[1][1].js;
  console.log(`/ (home) JS ${kb(homeJs)} against the same budget: ${homeJs <= BUDGET_SIGN_IN_JS ? 'within' : 'OVER'}`);
  const ethers = rows.map(([name, r]) => `${name}: ${r.ethers > 0 ? 'LOADED' : 'not loaded'}`).join(', ');
  console.log(`ethers in the first load: ${ethers}`);
  const walletChunk = readdirSync(join(repoRoot, 'shell/dist')).filter((f) => /^wallet(-service)?\.[0-9a-f]+\.js$/.test(f));
  console.log(`ethers lives in the shell's lazy chunk(s): ${walletChunk.join(', ') || '(none found)'}`);
} finally {
  await browser.close();
  await stack.stop();
}
