import * as z from 'zod/mini';

/**
 * A brand: a folder under BRANDS_DIR (`brands/<id>/`) with brand.json, its logos, favicon, terms
 * and privacy policy. This module is the one schema and the one set of checks that the shell's
 * server, the API and `npm run brand -- check` share. It imports nothing but zod, so the shell's
 * build can hand it to its plain-Node server as JavaScript (server-schema.mjs).
 */

/** The colour tokens a brand may set, per theme; any it leaves out fall back to the defaults. */
export const COLOUR_TOKENS = [
  'bg',
  'surface',
  'surface-2',
  'text',
  'text-muted',
  'border',
  'primary',
  'primary-text',
  'primary-hover',
  'link',
  'focus-ring',
  'success',
  'error',
  'warning',
  'info',
  'chart-1',
  'chart-2',
  'chart-3',
] as const;
export type ColourToken = (typeof COLOUR_TOKENS)[number];
export type ThemeTokens = Record<ColourToken, string>;
export type Theme = 'light' | 'dark';

/**
 * The design system's own values (shared/ui/src/styles.css declares the same; a test keeps them in
 * step). A brand's theme is these with its overrides on top.
 */
export const DEFAULT_TOKENS: Record<Theme, ThemeTokens> = {
  light: {
    bg: '#f4f6fb',
    surface: '#ffffff',
    'surface-2': '#eef1f8',
    text: '#141a2e',
    'text-muted': '#4a5370',
    border: '#d5dbea',
    primary: '#3b3fd8',
    'primary-text': '#ffffff',
    'primary-hover': '#2e31b3',
    link: '#2f33c2',
    'focus-ring': '#c25e00',
    success: '#0f7a3d',
    error: '#b3261e',
    warning: '#8a5300',
    info: '#1d4ed8',
    'chart-1': '#3b3fd8',
    'chart-2': '#0f7a3d',
    'chart-3': '#1d4ed8',
  },
  dark: {
    bg: '#0d1020',
    surface: '#161a2f',
    'surface-2': '#1f2440',
    text: '#eef0fa',
    'text-muted': '#b3b9d4',
    border: '#353c62',
    primary: '#8c90ff',
    'primary-text': '#0d1020',
    'primary-hover': '#a9acff',
    link: '#a9acff',
    'focus-ring': '#ffb454',
    success: '#5ad68b',
    error: '#ff8a80',
    warning: '#ffc46b',
    info: '#8ab4ff',
    'chart-1': '#8c90ff',
    'chart-2': '#5ad68b',
    'chart-3': '#8ab4ff',
  },
};

const colour = z.string().check(z.regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, 'a colour is #rgb or #rrggbb'));
const themeOverrides = z.partialRecord(z.enum(COLOUR_TOKENS), colour);
const host = z.string().check(z.minLength(1), z.maxLength(253), z.regex(/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/, 'a host is lower-case letters, digits, dots and dashes'));
const httpsUrl = z.url({ protocol: /^https?$/ });

export const brandSchema = z.object({
  /** The hosts the brand is served under; the first is its own (mail links, SIWE). */
  hosts: z.array(host).check(z.minLength(1)),
  title: z.string().check(z.minLength(1), z.maxLength(80)),
  defaultLanguage: z._default(z.enum(['en', 'ru']), 'en'),
  /** The brand's public address (scheme, host, port) for the links it mails; else PUBLIC_URL with the brand's first host. */
  url: z.optional(httpsUrl),
  theme: z._default(z.object({ light: z._default(themeOverrides, {}), dark: z._default(themeOverrides, {}) }), { light: {}, dark: {} }),
  social: z._default(z.object({ twitter: z.optional(httpsUrl), telegram: z.optional(httpsUrl), discord: z.optional(httpsUrl), docs: z.optional(httpsUrl) }), {}),
  supportEmail: z.email(),
  mail: z.object({ senderName: z.string().check(z.minLength(1), z.maxLength(80), z.regex(/^[^"<>\r\n]+$/, 'a sender name has no quotes, angle brackets or line breaks')), senderAddress: z.email() }),
  governingLaw: z._default(z.string().check(z.minLength(1), z.maxLength(80)), 'Singapore'),
  /** The runtime manifest (a file of the shell's remotes folder): a brand can swap any remote. */
  manifest: z._default(z.string().check(z.regex(/^[\w.-]+\.json$/, 'the manifest is a file name ending in .json')), 'remotes.json'),
});
export type BrandConfig = z.infer<typeof brandSchema>;

export type Lang2 = 'en' | 'ru';
export type BrandSvg = { light: string; dark: string };

/** A brand as loaded from its folder and checked. */
export type Brand = BrandConfig & {
  id: string;
  logo: BrandSvg;
  favicon: string;
  /** The legal texts as shown (placeholders filled in, hosts replaced by the title), as blocks of plain text. */
  terms: Record<Lang2, LegalBlock[]>;
  privacy: Record<Lang2, LegalBlock[]>;
};

/** The brands being served: the one named `default` answers any host no brand claims. */
export type BrandRegistry = { readonly brands: readonly Brand[]; readonly defaultBrand: Brand };

/** The files of a brand folder. */
export const BRAND_FILES = {
  required: ['brand.json', 'logo.svg', 'favicon.svg', 'terms.en.md', 'terms.ru.md', 'privacy.en.md', 'privacy.ru.md'],
  optional: ['logo-dark.svg'],
} as const;
/** Size limits, in bytes: the logo and favicon are inlined into every page. */
export const BRAND_LIMITS: Record<string, number> = {
  'brand.json': 16 * 1024,
  'logo.svg': 6 * 1024,
  'logo-dark.svg': 6 * 1024,
  'favicon.svg': 2 * 1024,
  'terms.en.md': 64 * 1024,
  'terms.ru.md': 64 * 1024,
  'privacy.en.md': 64 * 1024,
  'privacy.ru.md': 64 * 1024,
};

/** WCAG AA: normal text on its background, and graphics (focus ring, chart lines) on theirs. */
export const AA_TEXT = 4.5;
export const AA_GRAPHICS = 3;

/** The pairs that are read against each other: [foreground, background, minimum ratio]. */
export const TOKEN_PAIRS: readonly (readonly [ColourToken, ColourToken, number])[] = [
  ...(['bg', 'surface', 'surface-2'] as const).flatMap((bg) =>
    (['text', 'text-muted', 'link', 'success', 'error', 'warning', 'info'] as const).map((fg) => [fg, bg, AA_TEXT] as const),
  ),
  ['primary-text', 'primary', AA_TEXT],
  ['primary-text', 'primary-hover', AA_TEXT],
  ['primary', 'bg', AA_GRAPHICS],
  ['focus-ring', 'bg', AA_GRAPHICS],
  ['focus-ring', 'surface', AA_GRAPHICS],
  ...(['chart-1', 'chart-2', 'chart-3'] as const).map((c) => [c, 'surface', AA_GRAPHICS] as const),
];

function channels(hex: string): [number, number, number] {
  const h = hex.slice(1);
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** WCAG 2 relative luminance of a #rgb / #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A brand's full set of colours for a theme: its overrides on top of the defaults. */
export function themeTokens(config: Pick<BrandConfig, 'theme'>, theme: Theme): ThemeTokens {
  return { ...DEFAULT_TOKENS[theme], ...config.theme[theme] };
}

/** Every token pair of both themes below its WCAG AA ratio, as a sentence each. */
export function contrastProblems(config: Pick<BrandConfig, 'theme'>): string[] {
  const problems: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    const t = themeTokens(config, theme);
    for (const [fg, bg, min] of TOKEN_PAIRS) {
      const ratio = contrastRatio(t[fg], t[bg]);
      if (ratio < min) problems.push(`${theme} theme: ${fg} ${t[fg]} on ${bg} ${t[bg]} has contrast ${ratio.toFixed(2)}:1, below ${min}:1 (WCAG AA)`);
    }
  }
  return problems;
}

/**
 * What makes an SVG unsafe to inline into a page or a mail: a script, an event attribute, or a
 * reference to anything outside the file (which would also leak a visit to a third party).
 */
export function svgProblems(name: string, text: string): string[] {
  const problems: string[] = [];
  const body = text.replace(/^\uFEFF/, '').replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '').trim();
  if (!/^<svg[\s>]/i.test(body) || !/<\/svg>\s*$/i.test(body)) problems.push(`${name}: is not a single <svg> element`);
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) problems.push(`${name}: has a DOCTYPE or an entity`);
  if (/<script[\s>/]/i.test(body)) problems.push(`${name}: has a <script> element`);
  if (/<foreignObject[\s>/]/i.test(body)) problems.push(`${name}: has a <foreignObject> element`);
  const events = [...body.matchAll(/\s(on[a-z]+)\s*=/gi)].map((m) => m[1]);
  if (events.length > 0) problems.push(`${name}: has an event attribute (${[...new Set(events)].join(', ')})`);
  const refs = [...body.matchAll(/(?:href|src)\s*=\s*["']([^"']*)["']/gi)].map((m) => m[1] ?? '').filter((v) => !v.trim().startsWith('#'));
  const urls = [...body.matchAll(/url\(\s*["']?([^)"']*)/gi)].map((m) => m[1] ?? '').filter((v) => !v.trim().startsWith('#'));
  if (refs.length + urls.length > 0 || /@import/i.test(body)) problems.push(`${name}: refers to something outside the file (${[...refs, ...urls].join(', ') || '@import'})`);
  if (/javascript:/i.test(body)) problems.push(`${name}: has a javascript: address`);
  return problems;
}

export type BrandFiles = Record<string, string | undefined>;
export type BrandCheck = { ok: true; brand: Brand } | { ok: false; problems: string[] };

/**
 * Checks a brand folder's files (name → text; a missing file is undefined): the schema, the
 * contrast of every token pair, the SVGs and the sizes. Every problem is reported, not just the first.
 */
export function checkBrand(id: string, files: BrandFiles): BrandCheck {
  const problems: string[] = [];
  for (const name of BRAND_FILES.required) if (files[name] === undefined) problems.push(`${name}: missing`);
  for (const [name, text] of Object.entries(files)) {
    const limit = BRAND_LIMITS[name];
    if (text !== undefined && limit !== undefined && byteLength(text) > limit) problems.push(`${name}: ${byteLength(text)} bytes, above the limit of ${limit}`);
  }
  let config: BrandConfig | undefined;
  const json = files['brand.json'];
  if (json !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(json);
    } catch (error) {
      problems.push(`brand.json: is not JSON (${(error as Error).message})`);
    }
    if (raw !== undefined) {
      const parsed = brandSchema.safeParse(raw);
      if (parsed.success) config = parsed.data;
      else for (const issue of parsed.error.issues) problems.push(`brand.json: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
  }
  if (config) problems.push(...contrastProblems(config));
  for (const name of ['logo.svg', 'logo-dark.svg', 'favicon.svg']) {
    const text = files[name];
    if (text !== undefined) problems.push(...svgProblems(name, text));
  }
  if (problems.length > 0 || !config) return { ok: false, problems };
  const f = files as Record<string, string>;
  return {
    ok: true,
    brand: {
      ...config,
      id,
      logo: { light: f['logo.svg'], dark: files['logo-dark.svg'] ?? f['logo.svg'] } as BrandSvg,
      favicon: f['favicon.svg'] as string,
      terms: { en: legalBlocks(legalText(config, f['terms.en.md'] as string)), ru: legalBlocks(legalText(config, f['terms.ru.md'] as string)) },
      privacy: { en: legalBlocks(legalText(config, f['privacy.en.md'] as string)), ru: legalBlocks(legalText(config, f['privacy.ru.md'] as string)) },
    },
  };
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Host without port, lower-cased. */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0] ?? h;
}

/** The brand that claims a host, if any. */
export function brandForHost(registry: BrandRegistry, hostHeader: string | undefined): Brand | undefined {
  if (!hostHeader) return undefined;
  const h = hostName(hostHeader);
  return registry.brands.find((b) => b.hosts.includes(h));
}

/** The brand a request is served as: the one claiming its host, else the default brand. */
export function brandOrDefault(registry: BrandRegistry, hostHeader: string | undefined): Brand {
  return brandForHost(registry, hostHeader) ?? registry.defaultBrand;
}

/** Whether a host (with or without port) is one a brand is served under: SIWE's domain allowlist. */
export function isBrandHost(registry: BrandRegistry, hostHeader: string): boolean {
  return brandForHost(registry, hostHeader) !== undefined;
}

/** The title shown for a host: the brand's, else the default brand's. */
export function brandTitle(registry: BrandRegistry, hostHeader: string | undefined): string {
  return brandOrDefault(registry, hostHeader).title;
}

/**
 * The brand's own address for the links it mails: its `url`; else, for the default brand, the
 * public address (PUBLIC_URL), and for any other the public address with the brand's first host in
 * place of its host (same scheme and port). Never the request's Origin.
 */
export function brandBaseUrl(brand: Pick<BrandConfig, 'url' | 'hosts'>, publicUrl: string, isDefault: boolean): string {
  if (brand.url) return brand.url.replace(/\/$/, '');
  const u = new URL(publicUrl);
  if (isDefault) return u.origin;
  u.hostname = brand.hosts[0] ?? u.hostname;
  return u.origin;
}

/**
 * A legal text of a brand, ready to show: `{{title}}` and `{{law}}` filled in, and any of the
 * brand's hosts replaced by its title (spec §2: the host is never shown as the name).
 */
export function legalText(brand: Pick<BrandConfig, 'title' | 'hosts' | 'governingLaw'>, markdown: string): string {
  let text = markdown.replace(/\{\{title\}\}/g, brand.title).replace(/\{\{law\}\}/g, brand.governingLaw);
  for (const h of brand.hosts) text = text.split(h).join(brand.title);
  return text;
}

export type LegalBlock = { kind: 'heading' | 'paragraph' | 'item'; text: string };

/**
 * The little Markdown a legal text uses (headings, paragraphs, list items), as blocks of plain
 * text: the page and the modal draw them as elements, so no HTML from a brand reaches a page.
 */
export function legalBlocks(text: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  for (const chunk of text.replace(/\r\n/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length === 0) continue;
    if (lines.every((l) => /^[-*]\s+/.test(l))) {
      for (const l of lines) blocks.push({ kind: 'item', text: l.replace(/^[-*]\s+/, '') });
    } else if (lines.length === 1 && /^#{1,6}\s/.test(lines[0] as string)) {
      blocks.push({ kind: 'heading', text: (lines[0] as string).replace(/^#{1,6}\s+/, '') });
    } else {
      blocks.push({ kind: 'paragraph', text: lines.join(' ') });
    }
  }
  return blocks;
}

/** A legal text as the shell's server sends it to the terms modal (/brand/terms.<lang>.json). */
export const legalBlocksSchema = z.array(z.object({ kind: z.enum(['heading', 'paragraph', 'item']), text: z.string() }));

/** The brand facts the page reads after it starts, written into it by the shell's server (brand-page.mjs). */
export const pageBrandSchema = z.object({
  id: z.string(),
  title: z.string(),
  supportEmail: z.string(),
  social: z.object({ twitter: z.optional(z.string()), telegram: z.optional(z.string()), discord: z.optional(z.string()), docs: z.optional(z.string()) }),
  logo: z.object({ light: z.string(), dark: z.string() }),
});
export type PageBrand = z.infer<typeof pageBrandSchema>;
