import type { PageBrand } from '@app/contracts';

/**
 * The brand of the host the page is served from, as the shell's server wrote it into the page
 * (<script type="application/json" id="brand">, from the brand registry); a page without it shows
 * the default title and the diamond mark.
 */
export const DEFAULT_BRAND_TITLE = 'Invest Pools';

export function readBrandTitle(doc: Document = document): string {
  const meta = doc.querySelector('meta[name="brand-title"]');
  const title = meta?.getAttribute('content')?.trim();
  return title || DEFAULT_BRAND_TITLE;
}

const SOCIAL_KEYS = ['twitter', 'telegram', 'discord', 'docs'] as const;
const text = (v: unknown) => (typeof v === 'string' ? v : '');
/** Only http(s) addresses become links, and only data: images become logos. */
const httpUrl = (v: unknown) => (typeof v === 'string' && /^https?:\/\//.test(v) ? v : undefined);
const dataImage = (v: unknown) => (typeof v === 'string' && v.startsWith('data:image/svg+xml,') ? v : '');

/**
 * The page's brand facts: social links, support address, logos. Read without zod (the shell
 * starts without it), keeping only the fields of the expected kinds.
 */
export function readPageBrand(doc: Document = document): PageBrand {
  const title = readBrandTitle(doc);
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(doc.getElementById('brand')?.textContent ?? 'null');
    if (parsed && typeof parsed === 'object') raw = parsed as Record<string, unknown>;
  } catch {
    /* no brand in the page: the defaults below */
  }
  const social: PageBrand['social'] = {};
  const rawSocial = (raw.social ?? {}) as Record<string, unknown>;
  for (const key of SOCIAL_KEYS) {
    const href = httpUrl(rawSocial[key]);
    if (href) social[key] = href;
  }
  const logo = (raw.logo ?? {}) as Record<string, unknown>;
  return { id: text(raw.id) || 'default', title, supportEmail: text(raw.supportEmail), social, logo: { light: dataImage(logo.light), dark: dataImage(logo.dark) } };
}
