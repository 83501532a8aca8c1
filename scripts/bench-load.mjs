// npm run bench:load — how fast pages are on a slow network. Builds the site and a control page
// (the bare required stack: React, ReactDOM, the router, the MF runtime and single-spa, with one
// remote rendering a two-field form, built and served the same way), runs both on their own
// ports, and loads each page in Debian's Chromium with 150 ms round trips, 1.6 Mbit/s down,
// 0.75 Mbit/s up and a CPU 4× slower, cold (empty cache) and warm (a second visit), RUNS rounds
// of every page in turn. Prints the medians of first contentful paint, largest contentful paint, time to usable
// (the remote's page rendered: its form's button, or its heading with nothing loading), bytes
// transferred and requests, up to the moment the page is usable. Between the two visits the site's
// service worker is given the time to install, as a visitor's next visit would.
//   node scripts/bench-load.mjs [--no-build] [--runs N]
// For a quick look: BENCH_RUNS=2 BENCH_PAGES=sign-in,dashboard (page names: sign-in, ru-sign-in,
// dashboard, pools, control). Ports: BENCH_PORT_OFFSET, else 6500 past E2E_PORT_OFFSET.
// BENCH_TRACE=1 prints each visit's requests (start, end, bytes) up to the moment it is usable;
// BENCH_TRACE_DIR=dir writes a DevTools performance trace of each page's first cold and warm visit.
/* global window, document, MutationObserver -- watchUsable and the evaluated functions run in the page */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createConfig, repoRoot } from '../shared/build/index.mjs';
import { CONTRACT } from '../shared/build/manifest.mjs';
import { serveRemote, serveShell } from '../shell-server/serve.mjs';
import { startStack } from './stack.mjs';

const require = createRequire(import.meta.url);
const webpack = require('webpack');

const { values } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false }, runs: { type: 'string', default: process.env.BENCH_RUNS ?? '5' } } });
const RUNS = Number(values.runs);
const NETWORK = { latency: 150, downloadThroughput: (1.6e6 / 8) * 1, uploadThroughput: 0.75e6 / 8 };
const CPU_SLOWDOWN = 4;
// Ports of their own, apart from `npm start` (8080, 3001-3005, 4000, 8545) and the browser tests.
const offset = Number(process.env.BENCH_PORT_OFFSET ?? 6500 + Number(process.env.E2E_PORT_OFFSET ?? 0));
const ports = { shell: 8080 + offset, 'mf-auth': 3001 + offset, 'mf-cabinet': 3002 + offset, 'mf-pools': 3003 + offset, 'mf-referral': 3004 + offset, 'mf-dao': 3005 + offset, api: 4000 + offset, chain: 8545 + offset, mailSmtp: 1025 + offset, mailInbox: 1080 + offset };
const controlPorts = { host: 8090 + offset, remote: 3010 + offset };
const controlDir = join(repoRoot, 'scripts/bench-control');

function compile(configs) {
  return new Promise((resolve, reject) => {
    const compiler = webpack(configs);
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) return reject(error);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve();
    });
  });
}

if (!values['no-build']) {
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
  const control = [
    createConfig({ app: 'control', frontend: { dir: 'scripts/bench-control/host', mfName: 'control_host', host: true }, outDir: join(controlDir, 'dist/host') }),
    createConfig({ app: 'control-remote', frontend: { dir: 'scripts/bench-control/remote', mfName: 'control_remote', host: false }, outDir: join(controlDir, 'dist/remote') }),
  ];
  control.parallelism = 2;
  await compile(control);
}

/** In the page before anything else: when the page became usable, on the page's clock. */
function watchUsable(selector) {
  let usable;
  window.__usable = new Promise((resolve) => (usable = resolve));
  const check = () => {
    if (window.__usableAt !== undefined) return;
    const target = document.querySelector(selector);
    if (target && !document.querySelector('[aria-busy="true"]')) usable((window.__usableAt = performance.now()));
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  window.__lcp = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__lcp = Math.max(window.__lcp, entry.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

async function throttled(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORK });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!e.request.url.startsWith('data:')) requests.set(e.requestId, { at: e.timestamp, bytes: 0, url: e.request.url });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { bytes: e.encodedDataLength, done: e.timestamp });
  });
  return { cdp, requests };
}

/**
 * Waits, without adding work to the page, for the moment watchUsable saw: a plain evaluation
 * over the DevTools protocol, where Playwright's waitForFunction would first evaluate its own
 * injected script in the page, main-thread work the page itself would be charged for.
 */
async function usableIn(cdp) {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression: 'window.__usable', awaitPromise: true, returnByValue: true });
      if (!exceptionDetails && typeof result.value === 'number') return;
    } catch {
      // The evaluation ran in the document being replaced by the visit's: asked again.
    }
    if (Date.now() > until) throw new Error('the page did not become usable within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One visit: the page's figures, counting the requests made before it was usable. */
const traced = new Set();

async function visit(context, url, selector, { serviceWorker = false, kind = 'cold' } = {}) {
  const page = await context.newPage();
  await page.addInitScript(`(${watchUsable.toString()})(${JSON.stringify(selector)})`);
  const { cdp, requests } = await throttled(context, page);
  let startedAt;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (startedAt === undefined && e.type === 'Document') startedAt = e.timestamp;
  });
  // BENCH_TRACE_DIR: a DevTools performance trace of each page's first cold and warm visit, for
  // the Performance panel (tracing slows the page: its figures are not the table's).
  const traceFile = process.env.BENCH_TRACE_DIR && !traced.has(`${url} ${kind}`) ? join(process.env.BENCH_TRACE_DIR, `${new URL(url).pathname.replace(/\W+/g, '_')}-${kind}.json`) : undefined;
  const traceEvents = [];
  if (traceFile) {
    traced.add(`${url} ${kind}`);
    cdp.on('Tracing.dataCollected', (e) => traceEvents.push(...e.value));
    // With the stacks that installed each timer and started each request.
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'v8.execute', 'toplevel', 'loading', 'blink.user_timing', '__metadata'] } });
  }
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  await usableIn(cdp);
  if (traceFile) {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    writeFileSync(traceFile, JSON.stringify({ traceEvents }));
  }
  // LCP settles with the last big paint; a moment later it is final for this load.
  await page.waitForTimeout(300);
  const figures = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    lcp: window.__lcp || NaN,
    usable: window.__usableAt,
  }));
  const usableAtSeconds = startedAt + figures.usable / 1000;
  const counted = [...requests.values()].filter((r) => r.at <= usableAtSeconds + 0.05);
  // BENCH_TRACE=1: each counted request's start and end (seconds from the page's request) and bytes.
  if (process.env.BENCH_TRACE) {
    console.error(`${url} usable at ${(figures.usable / 1000).toFixed(2)} s`);
    for (const r of counted) console.error(`  ${(r.at - startedAt).toFixed(2)}–${r.done ? (r.done - startedAt).toFixed(2) : '?'} s ${String(r.bytes).padStart(7)} B ${r.url}`);
  }
  // A visitor's next visit comes after the page has settled: its service worker (registered once
  // the page has been idle) has kept the scripts by then.
  if (serviceWorker) {
    await page.evaluate(async () => {
      const until = Date.now() + 60_000;
      while ((await navigator.serviceWorker.getRegistration())?.active?.state !== 'activated') {
        if (Date.now() > until) throw new Error('the service worker was not installed within 60 s');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
  }
  await page.close();
  return { ...figures, bytes: counted.reduce((a, r) => a + r.bytes, 0), requests: counted.length };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One run of a page: a fresh visitor's cold visit, then their warm one. */
async function measureOnce(browser, { url, selector, signIn, serviceWorker }) {
  const context = await browser.newContext();
  if (signIn) await signIn(context);
  const cold = await visit(context, url, selector, { serviceWorker });
  const warm = await visit(context, url, selector, { kind: 'warm' });
  await context.close();
  return { cold, warm };
}

const summary = (runs) => Object.fromEntries(['fcp', 'lcp', 'usable', 'bytes', 'requests'].map((k) => [k, median(runs.map((r) => r[k]))]));

const dataDir = mkdtempSync(join(tmpdir(), 'bench-load-data-'));
const stack = await startStack({ ports, dataDir, apiEnv: { NODE_ENV: 'test', RATE_LIMIT_MULTIPLIER: '1000' }, log: () => undefined });
const controlRemotes = join(dataDir, 'control-remotes');
mkdirSync(controlRemotes, { recursive: true });
if (process.env.BENCH_TRACE_DIR) mkdirSync(process.env.BENCH_TRACE_DIR, { recursive: true });
writeFileSync(
  join(controlRemotes, 'remotes.json'),
  // Its route is the control remote's own (remote/routes.json, published with its build).
  JSON.stringify({ remotes: [{ name: 'control_remote', entry: `http://localhost:${controlPorts.remote}/mf-manifest.json`, contract: CONTRACT }] }),
);
const controlServers = [
  await serveRemote({ dir: join(controlDir, 'dist/remote'), port: controlPorts.remote }),
  await serveShell({ dir: join(controlDir, 'dist/host'), port: controlPorts.host, remotesDir: controlRemotes, brands: { forHost: () => ({ ...stack.brands.defaultBrand, title: 'Control' }) } }),
];
const { chromium } = await import('@playwright/test');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const base = `http://localhost:${ports.shell}`;
  const account = { login: `bench-load-${Date.now()}@example.com`, password: 'Secret#123' };
  {
    const api = await browser.newContext();
    await api.request.post(`${base}/api/v1/register`, { data: account });
    // The code, from the mail catcher's inbox (MailDev's REST API), once the mail has arrived.
    let code;
    for (let i = 0; !code && i < 50; i++) {
      const mails = await (await api.request.get(`${stack.mailInbox}/api/email`)).json();
      code = /\b(\d{6})\b/.exec(mails.findLast((m) => m.to.some((a) => a.address === account.login))?.text ?? '')?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 200));
    }
    // From the context that signed up, so the password survives the confirmation.
    const confirmed = await api.request.post(`${base}/api/v1/confirm-login`, { data: { login: account.login, code } });
    if (!confirmed.ok()) throw new Error(`the bench account could not be confirmed: ${await confirmed.text()}`);
    await api.close();
  }
  // Each browser context signs in for itself: refresh tokens rotate and may not be shared.
  const signIn = async (context) => {
    const response = await context.request.post(`${base}/api/v1/login`, { data: account });
    if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
  };
  const remotePage = '.remote-root h1';
  const allCases = [
    ['sign-in', '/sign-in', { url: `${base}/sign-in`, selector: '.remote-root button[type="submit"]', serviceWorker: true }],
    ['ru-sign-in', '/ru/sign-in', { url: `${base}/ru/sign-in`, selector: '.remote-root button[type="submit"]', serviceWorker: true }],
    ['dashboard', '/cabinet/dashboard (signed in)', { url: `${base}/cabinet/dashboard`, selector: remotePage, signIn, serviceWorker: true }],
    ['pools', '/cabinet/pools/stable (signed in)', { url: `${base}/cabinet/pools/stable`, selector: remotePage, signIn, serviceWorker: true }],
    ['control', 'control (bare stack, two-field form)', { url: `http://localhost:${controlPorts.host}/`, selector: 'form button[type="submit"]' }],
  ];
  const chosen = process.env.BENCH_PAGES?.split(',').map((p) => p.trim());
  const cases = allCases.filter(([key]) => !chosen || chosen.includes(key));
  // Other work on the machine slows every page: the load average is printed beside the table, and
  // the control page, measured in the same run, is the fair comparison.
  const loadAverage = () => loadavg().map((n) => n.toFixed(2)).join(', ');
  const loadBefore = loadAverage();
  const results = [];
  // Round by round, every page once a round: a machine that slows down or speeds up during the
  // benchmark does so for every page alike, the control included.
  const runs = cases.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    process.stderr.write(`round ${run + 1} of ${RUNS}…\n`);
    for (const [i, [, , c]] of cases.entries()) runs[i].push(await measureOnce(browser, c));
  }
  for (const [i, [key, name]] of cases.entries()) {
    results.push([key, name, { cold: summary(runs[i].map((r) => r.cold)), warm: summary(runs[i].map((r) => r.warm)) }]);
  }
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`\nbench:load — Chromium, ${NETWORK.latency} ms RTT, 1.6 Mbit/s down, 0.75 Mbit/s up, CPU ${CPU_SLOWDOWN}× slower; medians of ${RUNS} runs\n`);
  console.log('| page | visit | first contentful paint | largest contentful paint | usable | transferred | requests |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const [, name, r] of results) {
    for (const kind of ['cold', 'warm']) {
      const m = r[kind];
      console.log(`| ${name} | ${kind} | ${s(m.fcp)} | ${s(m.lcp)} | ${s(m.usable)} | ${kb(m.bytes)} | ${m.requests} |`);
    }
  }
  console.log(`\nLoad average (1, 5, 15 min): ${loadBefore} before measuring, ${loadAverage()} after.`);
  const of = (key) => results.find(([k]) => k === key)?.[2];
  const [signInCase, dashboard, pools, control] = ['sign-in', 'dashboard', 'pools', 'control'].map(of);
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  console.log('\nTargets:');
  if (signInCase) {
    console.log(`- /sign-in cold usable ≤ 2.0 s: ${s(signInCase.cold.usable)}, ${verdict(signInCase.cold.usable <= 2000)}`);
    console.log(`- /sign-in cold first paint ≤ 1.0 s: ${s(signInCase.cold.fcp)}, ${verdict(signInCase.cold.fcp <= 1000)}`);
    console.log(`- /sign-in warm usable ≤ 0.8 s: ${s(signInCase.warm.usable)}, ${verdict(signInCase.warm.usable <= 800)}`);
  }
  if (signInCase && control) {
    const ratio = signInCase.cold.usable / control.cold.usable;
    console.log(`- /sign-in cold usable ≤ 1.2 × the control's (${s(control.cold.usable)}): ${ratio.toFixed(2)} ×, ${verdict(ratio <= 1.2)}`);
  }
  for (const [name, r] of [['/cabinet/dashboard', dashboard], ['/cabinet/pools/stable', pools]]) {
    if (r) console.log(`- ${name} cold usable ≤ 2.5 s: ${s(r.cold.usable)}, ${verdict(r.cold.usable <= 2500)}`);
  }
} finally {
  await browser.close();
  await Promise.all(controlServers.map((server) => new Promise((resolve) => server.close(resolve))));
  await stack.stop();
}
