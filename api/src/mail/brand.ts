import { brandBaseUrl, themeTokens, type Brand, type BrandRegistry } from '@app/contracts';

/** What a mail takes from its brand: who it is from, its colours and logo, and the brand's own address. */
export type MailBrand = {
  /** `"Name" <address>`, from brand.json `mail`. */
  from: string;
  /** The brand's own address (brandBaseUrl): every link and the logo. */
  baseUrl: string;
  primary: string;
  primaryText: string;
  text: string;
  surface: string;
};

export function mailBrand(registry: BrandRegistry, brand: Brand, publicUrl: string): MailBrand {
  // Mail clients have no dark mode to follow reliably: the light theme's colours, which pass AA on white.
  const t = themeTokens(brand, 'light');
  return {
    from: `"${brand.mail.senderName}" <${brand.mail.senderAddress}>`,
    baseUrl: brandBaseUrl(brand, publicUrl, brand.id === registry.defaultBrand.id),
    primary: t.primary,
    primaryText: t['primary-text'],
    text: t.text,
    surface: t.surface,
  };
}
