// What the shell's server writes into a page for its brand, at first paint and with no script: the
// brand's token overrides as one <style>, the favicon and logos as data: images (an SVG drawn as an
// image never runs anything), and the facts the page needs after it starts. Also the brand's legal
// pages (/terms, /privacy, per language), made here as static HTML. The brand itself comes from the
// registry (shared/contracts/src/brand-folder.ts), which the shell's build hands this server as
// JavaScript (server/brand-folder.mjs).
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { SERVER_BRAND_FOLDER } from '@app/build/outputs.mjs';

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const inlineJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');
const sha256 = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** An SVG as a data: URL, percent-encoded only where it must be (smaller than base64). */
export function svgDataUrl(svg) {
  return `data:image/svg+xml,${svg.trim().replace(/\s+/g, ' ').replace(/[%#<>"{}|\\^`\r\n]/g, (c) => encodeURIComponent(c))}`;
}

/** Opens the brand registry of a folder with the build's copy of the shared checks. */
export async function openBrands(shellDir, brandsDir, log) {
  const { openBrandRegistry } = await import(pathToFileURL(join(shellDir, SERVER_BRAND_FOLDER)).href);
  return openBrandRegistry(brandsDir, log);
}

const tokenBlock = (tokens) => Object.entries(tokens ?? {}).map(([name, value]) => `--${name}:${value}`).join(';');

/**
 * The brand's overrides of the design system's tokens, per theme, and for a page whose theme no
 * script has set (the system's). Empty when the brand keeps the defaults.
 */
export function brandTokensCss(brand) {
  const light = tokenBlock(brand.theme?.light);
  const dark = tokenBlock(brand.theme?.dark);
  let css = '';
  if (light) css += `[data-theme='light'],:root:not([data-theme]){${light}}`;
  if (dark) css += `[data-theme='dark']{${dark}}@media (prefers-color-scheme: dark){:root:not([data-theme]){${dark}}}`;
  return css;
}

/** The page-wide facts the shell reads at start (shell/src/brand/brand.ts). */
export function pageBrand(brand) {
  return {
    id: brand.id,
    title: brand.title,
    supportEmail: brand.supportEmail,
    social: brand.social ?? {},
    logo: { light: svgDataUrl(brand.logo.light), dark: svgDataUrl(brand.logo.dark) },
  };
}

/** The brand's logo for both themes; the stylesheet shows the one of the page's theme. */
export function logoImages(logo) {
  if (logo.light === logo.dark) return `<img class="logo__img" src="${escapeHtml(logo.light)}" alt="" width="32" height="32">`;
  return (
    `<img class="logo__img logo__img--light" src="${escapeHtml(logo.light)}" alt="" width="32" height="32">` +
    `<img class="logo__img logo__img--dark" src="${escapeHtml(logo.dark)}" alt="" width="32" height="32">`
  );
}

/**
 * The head markup of a brand's page and the hash its <style> needs in the page's CSP. Cached per
 * brand object: the registry hands out a new object only when the brand changes.
 */
const headCache = new WeakMap();
export function brandHead(brand) {
  let head = headCache.get(brand);
  if (!head) {
    const css = brandTokensCss(brand);
    const data = pageBrand(brand);
    head = {
      data,
      markup:
        `<link rel="icon" type="image/svg+xml" href="${escapeHtml(svgDataUrl(brand.favicon))}">` +
        (css ? `<style>${css}</style>` : '') +
        `<script type="application/json" id="brand">${inlineJson(data)}</script>`,
      styleHashes: css ? [sha256(css)] : [],
    };
    headCache.set(brand, head);
  }
  return head;
}

/** The legal pages every brand has, at /terms and /privacy (and /ru/…). */
export const LEGAL_PAGES = { '/terms': 'terms', '/privacy': 'privacy' };
const LEGAL_TITLES = {
  en: { terms: 'Terms and conditions', privacy: 'Privacy policy', home: 'Home', other: { terms: 'Privacy policy', privacy: 'Terms and conditions' } },
  ru: { terms: 'Условия использования', privacy: 'Политика конфиденциальности', home: 'На главную', other: { terms: 'Политика конфиденциальности', privacy: 'Условия использования' } },
};

/** A legal text's blocks (shared/contracts legalBlocks) as HTML, every character of the brand's escaped. */
export function legalHtml(blocks) {
  const out = [];
  let list = [];
  const flush = () => {
    if (list.length) out.push(`<ul>${list.join('')}</ul>`);
    list = [];
  };
  for (const b of blocks) {
    if (b.kind === 'item') {
      list.push(`<li>${escapeHtml(b.text)}</li>`);
      continue;
    }
    flush();
    out.push(b.kind === 'heading' ? `<h2>${escapeHtml(b.text)}</h2>` : `<p>${escapeHtml(b.text)}</p>`);
  }
  flush();
  return out.join('');
}

/**
 * A brand's terms or privacy policy as a page of its own: no script, the brand's colours and
 * logo, readable with scripts off. `stylesheet` is the design system's CSS, inlined like the app's.
 */
export function renderLegalPage({ brand, kind, locale, stylesheet = '' }) {
  const words = LEGAL_TITLES[locale] ?? LEGAL_TITLES.en;
  const text = brand[kind][locale] ?? brand[kind].en;
  const { markup, data, styleHashes } = brandHead(brand);
  const prefix = locale === 'ru' ? '/ru' : '';
  const otherKind = kind === 'terms' ? 'privacy' : 'terms';
  // The text's first heading is the page's title.
  const pageCss = `${stylesheet}.legal{max-width:760px;margin:0 auto;padding:var(--space)}`;
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><title>${escapeHtml(`${words[kind]} · ${brand.title}`)}</title>` +
    `<style>${pageCss}</style>${markup}</head><body><header class="header header--auth">` +
    `<a class="logo" href="${prefix || '/'}" aria-label="${escapeHtml(brand.title)}"><span class="logo__mark" aria-hidden="true">${logoImages(data.logo)}</span><span class="logo__title">${escapeHtml(brand.title)}</span></a>` +
    `<nav class="header__actions" aria-label="${escapeHtml(words[kind])}"><a href="${prefix}/${otherKind}">${escapeHtml(words.other[kind])}</a>` +
    `<a href="${locale === 'ru' ? `/${kind}` : `/ru/${kind}`}" hreflang="${locale === 'ru' ? 'en' : 'ru'}">${locale === 'ru' ? 'ENG' : 'RUS'}</a></nav></header>` +
    `<main class="legal" id="main">${legalHtml(text).replace(/^<h2>(.*?)<\/h2>/, '<h1>$1</h1>')}<p><a href="${prefix || '/'}">${escapeHtml(words.home)}</a></p></main></body></html>`;
  const csp = [`default-src 'none'`, `style-src ${[sha256(pageCss), ...styleHashes].join(' ')}`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`, `frame-ancestors 'none'`].join('; ');
  return { html, csp };
}

/** Which legal page a path names, with its language; undefined for any other path. */
export function legalPageOf(pathname) {
  const locale = pathname === '/ru' || pathname.startsWith('/ru/') ? 'ru' : 'en';
  const path = locale === 'ru' ? pathname.slice(3) : pathname;
  const kind = LEGAL_PAGES[path.replace(/\/$/, '')];
  return kind ? { kind, locale } : undefined;
}

const BRAND_FILE = /^\/brand\/(logo|logo-dark|favicon)\.svg$|^\/brand\/(terms|privacy)\.(en|ru)\.json$/;

/**
 * Answers the brand's own paths, and says whether it did: its legal pages (/terms, /privacy, under
 * /ru too), its texts for the terms modal (/brand/terms.<lang>.json) and its images, which mails
 * link to (an image, never a page of its own: the CSP sandboxes it).
 */
export function serveBrandFile({ req, res, brand, pathname, stylesheet, send }) {
  const legal = legalPageOf(pathname);
  if (legal) {
    const { html, csp } = renderLegalPage({ brand, kind: legal.kind, locale: legal.locale, stylesheet });
    res.setHeader('Content-Security-Policy', csp);
    send(req, res, html, 'text/html; charset=utf-8');
    return true;
  }
  const m = BRAND_FILE.exec(pathname);
  if (!m) return false;
  if (m[1]) {
    const svg = m[1] === 'favicon' ? brand.favicon : m[1] === 'logo' ? brand.logo.light : brand.logo.dark;
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    send(req, res, svg, 'image/svg+xml');
  } else {
    send(req, res, JSON.stringify(brand[m[2]][m[3]]), 'application/json');
  }
  return true;
}

/**
 * A first visit (no language remembered: the shell's `lang` cookie) to a page of a brand whose
 * default language is Russian goes to the page under /ru. Any visit after it has the cookie, so a
 * person who chose English stays there. Returns the address to send the visitor to, or undefined.
 */
export function defaultLanguageRedirect(req, brand, url) {
  if (brand.defaultLanguage !== 'ru' || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
  if (url.pathname === '/ru' || url.pathname.startsWith('/ru/')) return undefined;
  if (/(?:^|;\s*)lang=(en|ru)(?:;|$)/.test(String(req.headers.cookie ?? ''))) return undefined;
  return `/ru${url.pathname === '/' ? '' : url.pathname}${url.search}`;
}
