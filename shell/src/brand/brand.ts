/**
 * The brand title of the host the page is served from. The shell's server writes it into
 * <meta name="brand-title"> from the brand registry; a page without it shows the default.
 */
export const DEFAULT_BRAND_TITLE = 'Invest Pools';

export function readBrandTitle(doc: Document = document): string {
  const meta = doc.querySelector('meta[name="brand-title"]');
  const title = meta?.getAttribute('content')?.trim();
  return title || DEFAULT_BRAND_TITLE;
}
