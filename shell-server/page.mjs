// The shell's page, made per request: the brand's title, the runtime manifest inlined, and hints
// that start the route owner's container and exposed chunks downloading alongside the shell's own
// scripts, so nothing waits for main.js to ask for /remotes.json and then mf-manifest.json.
// Remotes stay independently deployable: their mf-manifest.json files are read here at run time
// and kept only briefly.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PAGE_PLAN, SERVER_MANIFEST_SCHEMA, STARTUP_CHUNKS } from '@app/build/outputs.mjs';
import { apiBasePath, earlyProtocol, sessionMarkerCookie } from '@app/contracts/src/early-protocol.mjs';
import { localeOfPath, routeOwner } from '@app/contracts/src/routing.mjs';
import { frameRendererFor, systemThemeCss } from './frame.mjs';
import { createRemoteReader } from './remote-json.mjs';
import { brandHead } from './brand-page.mjs';

/** How long a remote's mf-manifest.json is trusted: a redeploy is seen within this. */
export const REMOTE_MANIFEST_TTL_MS = 2000;
const STALE_IF_ERROR_MS = 30_000;

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside <script type="application/json">: nothing in it can close the element. */
const inlineJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

// The one route matcher and locale parser, the browser's too.
export { routeOwner };

/** Where a remote's container script and chunks are, from its mf-manifest.json and that file's URL. */
export function remoteFiles(mfManifest, manifestUrl) {
  const { remoteEntry, publicPath } = mfManifest.metaData;
  const file = remoteEntry.path ? `${remoteEntry.path.replace(/\/+$/, '')}/${remoteEntry.name}` : remoteEntry.name;
  const base = !publicPath || publicPath === 'auto' ? manifestUrl : new URL(publicPath, manifestUrl).href;
  const entry = new URL(file, base).href;
  const expose = (mfManifest.exposes ?? []).find((e) => e.path === './app' || e.name === 'app');
  const url = (name) => new URL(name, entry).href;
  const lazy = expose?.assets?.js?.async ?? [];
  // The remote's strings per language, in chunks the build names "strings-<language>".
  const stringsIn = (locale) => lazy.filter((name) => new RegExp(`(^|/)strings-${locale}\\.[0-9a-f]{8}\\.js$`).test(name)).map(url);
  return {
    entry,
    js: (expose?.assets?.js?.sync ?? []).map(url),
    css: (expose?.assets?.css?.sync ?? []).map(url),
    lazy: lazy.map(url),
    strings: { en: stringsIn('en'), ru: stringsIn('ru') },
  };
}

/** Reads remotes' mf-manifest.json files, each kept for REMOTE_MANIFEST_TTL_MS. */
export function createRemoteManifests({ ttlMs = REMOTE_MANIFEST_TTL_MS, fetchImpl = fetch } = {}) {
  // Down, slow or not a manifest: the page goes without hints and the browser finds out. One that
  // fails to answer once (a busy moment) keeps its last hints for a while.
  return createRemoteReader({ ttlMs, staleMs: STALE_IF_ERROR_MS, fetchImpl, parse: (json, url) => remoteFiles(json, url) });
}

/**
 * The built index.html with its stylesheets inlined (the first paint waits for no request), and
 * the theme's colours for a page no script has given a theme.
 */
export function inlineStylesheets(template, dir) {
  let css = '';
  const page = template.replace(/<link href="\/([^"]+\.css)" rel="stylesheet"\s*\/?>/g, (tag, file) => {
    try {
      const text = readFileSync(join(dir, file), 'utf8');
      css += text;
      return `<style>${text}</style>`;
    } catch {
      return tag;
    }
  });
  const fallback = systemThemeCss(css);
  return { page: fallback ? page.replace('</head>', `<style>${fallback}</style></head>`) : page, css };
}

/** The shell's named lazy chunks (cabinet-layout, api-schemas, wallet-service) in its build. */
function namedChunks(dir) {
  const chunks = {};
  try {
    for (const file of readdirSync(dir)) {
      const name = /^([a-z-]+)\.[0-9a-f]{8}\.js$/.exec(file)?.[1];
      if (name) chunks[name] = `/${file}`;
    }
  } catch {
    /* no build: no hints */
  }
  return chunks;
}

/** A version of the shell's main.js (whose name carries no hash) from its content. */
export function mainScriptVersion(dir) {
  try {
    return createHash('sha256').update(readFileSync(join(dir, 'main.js'))).digest('hex').slice(0, 12);
  } catch {
    return undefined;
  }
}

const API_BASE = apiBasePath;
/** A route parameter that may go into an early call: a plain word, nothing to escape. */
const CALL_PARAM = /^[A-Za-z0-9_-]{1,64}$/;
/** An early call once its parameters are in: a path (and query) under the API, never another origin. */
const CALL = /^\/[A-Za-z0-9_\-/]*(\?[A-Za-z0-9_\-=&]*)?$/;

/**
 * The API calls a signed-in page's first screen makes, as the route owning the path lists them
 * in the runtime manifest (`firstCalls`, paths under the API with the route's `:params`). The
 * page's inline script starts them, with the token its refresh brings, while the scripts
 * download; the remote's own calls then take those answers. A call that does not come out as a
 * plain path under the API is left out: the token goes with each.
 */
export function firstCalls(manifest, pathname) {
  const owner = routeOwner(manifest, pathname);
  const calls = owner?.route.role ? undefined : owner?.route.firstCalls;
  if (!Array.isArray(calls)) return [];
  const params = owner.params;
  if (!Object.values(params).every((value) => CALL_PARAM.test(value))) return [];
  return calls
    .filter((call) => typeof call === 'string')
    .map((call) => call.replace(/:([A-Za-z]\w*)/g, (token, name) => params[name] ?? token))
    .filter((call) => CALL.test(call) && !call.includes('//'))
    .map((call) => `${API_BASE}${call}`);
}

/**
 * The shell's page plan, from its build (shell/page-plan.json, completed by the build): the
 * chunks a cabinet page starts with; the one with every call's schemas, for a page whose first
 * calls go beyond the cabinet's own (`cabinetCalls`, whose schemas are in a small chunk); what a
 * visitor most likely opens next, fetched when the page has been idle (spec §9); what the
 * service worker keeps. Without a build: no hints.
 */
function pagePlan(dir) {
  const plan = readJson(join(dir, PAGE_PLAN)) ?? {};
  return { inner: plan.inner ?? [], allCallSchemas: plan.allCallSchemas, idle: plan.idle ?? [], precache: plan.precache ?? [], cabinetCalls: new Set(plan.cabinetCalls ?? []) };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The hashes of the page's inline scripts and styles, for the Content-Security-Policy. */
function inlineHashes(html) {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]));
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]));
  return { scripts, styles };
}

export const CSP_REPORT_PATH = '/csp-report';

/**
 * A remote whose every route is a role's own (the operator console): nothing of it is hinted,
 * prefetched or kept by the service worker, so a visitor's browser never fetches it.
 */
export const isRoleRemote = (remote) => Array.isArray(remote?.routes) && remote.routes.length > 0 && remote.routes.every((r) => typeof r?.role === 'string');

/** The manifest's text without the remotes of a role (on a host that does not serve them), or as it is. */
export function withoutRoleRemotes(manifestText) {
  const { manifest } = parseManifest(manifestText);
  if (!Array.isArray(manifest?.remotes) || !manifest.remotes.some(isRoleRemote)) return manifestText;
  return JSON.stringify({ ...manifest, remotes: manifest.remotes.filter((r) => !isRoleRemote(r)) });
}

/** A brand's runtime manifest as stored, and its well-formed remotes. */
function parseManifest(manifestText) {
  let manifest;
  try {
    manifest = manifestText === undefined ? undefined : JSON.parse(manifestText);
  } catch {
    // A malformed manifest is not inlined: the shell fetches it and shows its error page.
  }
  const remotes = Array.isArray(manifest?.remotes) ? manifest.remotes.filter((r) => typeof r?.entry === 'string' && typeof r?.name === 'string') : [];
  return { manifest, remotes };
}

/**
 * What the service worker keeps from its install: every content-addressed script and stylesheet a
 * page of the brand starts with (the shell's main.js by its versioned URL, start-up chunks,
 * strings and cabinet chunks; each remote's exposed chunks and strings). Never remoteEntry.js
 * or a manifest: those name the current deploy and always come from the network.
 */
export function createPrecacheList({ dir, remoteManifests, mainVersion = mainScriptVersion(dir) }) {
  const chunks = namedChunks(dir);
  const startup = readJson(join(dir, STARTUP_CHUNKS)) ?? { startup: [], strings: {} };
  const shell = [
    ...(mainVersion ? [`/main.js?v=${mainVersion}`] : []),
    ...[...startup.startup, ...Object.values(startup.strings).flat()].map((file) => `/${file}`),
    ...pagePlan(dir).precache.map((name) => chunks[name]).filter(Boolean),
  ];
  /** @param {string | undefined} manifestText the brand's runtime manifest as stored */
  return async (manifestText) => {
    const remotes = parseManifest(manifestText).remotes.filter((r) => !isRoleRemote(r));
    const files = await Promise.all(remotes.map((r) => remoteManifests(r.entry)));
    // A remote's lazy chunks too: its pages themselves load lazily (the sign-in page is split from the
    // home page), so a second visit would otherwise fetch and compile them again.
    const remote = files.filter(Boolean).flatMap((f) => [...f.js, ...f.css, ...(f.lazy ?? [])]);
    return [...new Set([...shell, ...remote])];
  };
}

/**
 * The page's Content-Security-Policy: its own origin, the brand's remote origins (their
 * containers, chunks and manifests), the inline theme script and styles by hash, and nothing
 * else. No 'unsafe-eval' and no 'unsafe-inline'. The API is this origin (/api is proxied); the
 * wallet is the browser extension's own provider, which the page reaches by events, not by URL.
 */
export function contentSecurityPolicy({ remoteOrigins, hashes }) {
  const remotes = [...remoteOrigins].join(' ');
  const list = (...items) => items.filter(Boolean).join(' ');
  return [
    // Prefetched chunks of the remotes fall under default-src.
    `default-src ${list(`'self'`, remotes)}`,
    `script-src ${list(`'self'`, remotes, ...hashes.scripts)}`,
    `style-src ${list(`'self'`, remotes, ...hashes.styles, `'report-sample'`)}`,
    `connect-src ${list(`'self'`, 'blob:', remotes)}`,
    `img-src ${list(`'self'`, 'data:', 'blob:', remotes)}`,
    `font-src ${list(`'self'`, remotes)}`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
    `report-uri ${CSP_REPORT_PATH}`,
  ].join('; ');
}

/**
 * The runtime manifest's schema from the host's build (server-schema.mjs); undefined without one,
 * and then no manifest goes in the page: the browser fetches it and checks it itself.
 */
/** The schemas the shell's build hands its server (runtime manifest, remote routes), or undefined without a build. */
export async function loadServerSchemas(dir) {
  try {
    return await import(pathToFileURL(join(dir, SERVER_MANIFEST_SCHEMA)).href);
  } catch {
    return undefined;
  }
}

/**
 * @param {object} o
 * @param {string} o.dir the shell's build
 * @param {ReturnType<typeof createRemoteManifests>} o.remoteManifests
 * @param {string | undefined} [o.mainVersion] main.js's content version (read from the build when not given)
 * @param {{ safeParse(value: unknown): { success: boolean, data?: unknown } } | undefined} [o.manifestSchema]
 *   the runtime manifest's schema (read from the build when not given)
 * @param {Promise<any>} [o.schemas] the build's server schemas, when already being read (loadServerSchemas)
 */
export function createPageRenderer({ dir, remoteManifests, mainVersion = mainScriptVersion(dir), manifestSchema, schemas = loadServerSchemas(dir) }) {
  const schema = manifestSchema ? Promise.resolve(manifestSchema) : schemas.then((s) => s?.runtimeManifestSchema);
  // The brand's manifest is read again every few seconds, and is the same text almost always.
  let checked = { text: /** @type {string | undefined} */ (undefined), manifest: /** @type {any} */ (undefined), remotes: /** @type {any[]} */ ([]) };
  /**
   * The manifest as the schema reads it (defaults filled in), or undefined if it is not one; and
   * the remotes it names, read loosely, whose origins the page may load from either way.
   */
  const checkedManifest = async (manifestText) => {
    if (manifestText !== checked.text) {
      const { manifest, remotes } = parseManifest(manifestText);
      const result = manifest === undefined ? undefined : (await schema)?.safeParse(manifest);
      checked = { text: manifestText, manifest: result?.success ? result.data : undefined, remotes };
    }
    return checked;
  };
  // main.js is asked for by a versioned URL, so a visit after a deploy never runs the old one
  // and a cached copy needs no revalidation.
  const mainUrl = mainVersion ? `main.js?v=${mainVersion}` : 'main.js';
  const { page: inlined, css: stylesheet } = inlineStylesheets(readFileSync(join(dir, 'index.html'), 'utf8'), dir);
  // The brand's favicon comes with its head (brand-page.mjs).
  const template = inlined.replace(/<link rel="icon" href="data:,"\s*\/?>/, '').replace(/(<script[^>]* src=")\/main\.js(")/, `$1/${mainUrl}$2`);
  const renderFrame = frameRendererFor(dir);
  const chunks = namedChunks(dir);
  const plan = pagePlan(dir);
  const startup = readJson(join(dir, STARTUP_CHUNKS)) ?? { startup: [], strings: {} };
  const hashes = inlineHashes(template);
  /**
   * @param {object} page
   * @param {import('../contracts/src/brand').Brand} page.brand the brand the page is served as
   * @param {string} page.pathname
   * @param {string | undefined} page.manifestText the brand's runtime manifest as stored
   * @returns {Promise<{ html: string, csp: string }>}
   */
  async function renderPage({ brand, pathname, manifestText, keptByServiceWorker = false }) {
    const title = brand.title;
    const branded = brandHead(brand);
    // Only a manifest the schema accepts goes in the page (the browser takes that copy as it is),
    // or gives the page its hints; for any other the shell fetches it and shows what is wrong.
    const { manifest, remotes } = await checkedManifest(manifestText);
    const owner = routeOwner(manifest, pathname);
    const files = await Promise.all(remotes.map((r) => remoteManifests(r.entry)));
    const entries = {};
    remotes.forEach((r, i) => {
      if (files[i]) entries[r.name] = files[i].entry;
    });

    // The hints: preconnects and preloads, at the top of the head, found with the page's first
    // bytes. (Also sending them as a Link header measured slower against the control: the header's
    // own bytes, and the remote's files fetched at once at high priority.)
    const hints = [];
    const hint = (rel, href, as) => hints.push(`<link rel="${rel}"${as ? ` as="${as}"` : ''} href="${escapeHtml(href)}">`);
    const early = [];
    const head = [];
    const origins = new Set();
    for (const r of remotes) {
      try {
        origins.add(new URL(r.entry).origin);
      } catch {
        /* not a URL: the shell's manifest check reports it */
      }
    }
    for (const origin of origins) hint('preconnect', origin);
    // A role's page (the operator console) is hinted nothing: the shell loads it only once the
    // session shows the role.
    const ownerFiles = owner && !owner.route.role ? files[remotes.findIndex((r) => r.name === owner.remote.name)] : undefined;
    const locale = localeOfPath(pathname);
    if (ownerFiles) {
      // The remote's strings of the page's language (and English, the fallback) are read before
      // it renders: fetched with its code rather than after it starts.
      const strings = [...(ownerFiles.strings?.[locale] ?? []), ...(locale === 'en' ? [] : (ownerFiles.strings?.en ?? []))];
      const kept = keptByServiceWorker ? [] : [...ownerFiles.js, ...strings];
      for (const href of [ownerFiles.entry, ...kept]) hint('preload', href, 'script');
      for (const href of keptByServiceWorker ? [] : ownerFiles.css) hint('preload', href, 'style');
    }
    // The shell's own start-up chunks and strings (English is the fallback of every language),
    // alongside main.js rather than after it.
    // main.js first: a deferred script is fetched at low priority, behind every hint.
    const shellFiles = [mainUrl, ...startup.startup, ...(startup.strings[locale] ?? []), ...(locale === 'en' ? [] : (startup.strings.en ?? []))];
    // A page the service worker serves has these files at hand: a hint each would cost the page
    // more than it saves. The start-up chunks need none: their own script tags come early.
    if (!keptByServiceWorker) hint('preload', `/${mainUrl}`, 'script');
    early.push(...shellFiles.slice(1).map((file) => `/${file}`));
    const inner = owner?.route.layout === 'inner';
    // The cabinet's frame, and the schemas of the cabinet's calls (the dashboard's figures, and
    // the revision every cabinet page polls), which a cabinet page asks for as soon as it starts.
    // A page whose first calls go beyond those (a pool page: its pool, its panels) checks their
    // answers with every call's schemas (api-schemas), which would otherwise be asked for only
    // when the first answer is in.
    const calls = firstCalls(manifest, pathname);
    // zod itself comes with them, and the session's schemas, which check the refresh's answer.
    const schemas = calls.some((call) => !plan.cabinetCalls.has(call)) && plan.allCallSchemas ? [plan.allCallSchemas] : [];
    const cabinetFiles = inner ? [...plan.inner, ...schemas].map((name) => chunks[name]).filter(Boolean) : [];
    early.push(...cabinetFiles);
    // Later, at low priority: the shell's chunks the next step needs, and the route owner's
    // lazily loaded pages (the other auth pages on an auth page).
    const idle = [
      ...plan.idle.map((name) => chunks[name]).filter((file) => file && !cabinetFiles.includes(file)),
      ...(ownerFiles?.lazy ?? []),
    ];
    // The shell's start-up chunks also run as soon as each arrives, before main.js: each only
    // hands its modules to the build's chunk list, where main.js's loader then finds them. Their
    // compile spreads over the download instead of all coming after the last byte, and the loader
    // never inserts a script for them. Only the shell's own: they are of the same build as this
    // page's main.js. A remote's chunks stay hints, since its remoteEntry.js, fetched later, may
    // already be a newer deploy, whose loader would take an older chunk of the same id as done.
    const earlyTags = early.map((src) => `<script async data-early src="${escapeHtml(src)}"></script>`).join('');
    if (manifest !== undefined) head.push(`<script type="application/json" id="runtime-manifest">${inlineJson(manifest)}</script>`);
    // The containers' URLs as this server read them from the remotes' own manifests (the browser
    // takes only http(s) ones), whatever becomes of the runtime manifest.
    if (Object.keys(entries).length > 0) head.push(`<script type="application/json" id="remote-entries">${inlineJson(entries)}</script>`);
    head.push(`<script type="application/json" id="idle-prefetch">${inlineJson(idle)}</script>`);

    const safeTitle = escapeHtml(title);
    const frame = renderFrame({ layout: owner?.route.layout, locale, title, logo: branded.data.logo });
    const html = template
      // Right after the page's inline script, whose listener takes out an early chunk that fails,
      // and before the stylesheet: the page's first bytes start them.
      .replace(/<script>[\s\S]*?<\/script>|<\/head>/, (tag) => (tag === '</head>' ? `${earlyTags}${tag}` : `${tag}${earlyTags}`))
      .replace(/<html lang="[a-z]+"/, () => `<html lang="${locale}"`)
      .replace('<div id="root"></div>', () => `<div id="root">${frame}</div>`)
      .replace(/<meta name="brand-title" content="[^"]*"\s*\/?>/, () => `<meta name="brand-title" content="${safeTitle}">`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${safeTitle}</title>`)
      .replace(/<title>|<\/head>/, (tag) => `${hints.join('')}${tag}`)
      // The brand's look comes last in the head, after the design system's stylesheet it overrides.
      .replace('</head>', () => `${head.join('')}${branded.markup}</head>`)
      // Before the inline script, which reads it as soon as the page starts: a signed-in
      // visitor's refresh and the first screen's calls.
      .replace('<script>', () => `<script type="application/json" id="${earlyProtocol.element}">${inlineJson({ marker: sessionMarkerCookie, refresh: `${API_BASE}/refresh`, calls })}</script><script>`);
    return { html, csp: contentSecurityPolicy({ remoteOrigins: origins, hashes: { scripts: hashes.scripts, styles: [...hashes.styles, ...branded.styleHashes] } }) };
  }
  /** The design system's CSS as the page inlines it: the brand's legal pages wear it too. */
  renderPage.stylesheet = stylesheet;
  return renderPage;
}
