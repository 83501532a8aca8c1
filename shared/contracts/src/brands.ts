import * as z from 'zod/mini';
import defaultRegistry from './brands.json';

/**
 * The brand registry: which hosts the product is served under, the title each shows, and the
 * runtime manifest (remotes.json) each uses. The shell's server picks the manifest and title by
 * host; the API uses the hosts as the allowlist of SIWE domains.
 */
export const brandSchema = z.object({
  host: z.string().check(z.minLength(1), z.maxLength(253)),
  title: z.string().check(z.minLength(1), z.maxLength(80)),
  manifest: z._default(z.string().check(z.minLength(1)), 'remotes.json'),
  /** The brand's public address (scheme, host, port), used in the links the API mails; else PUBLIC_URL. */
  url: z.optional(z.url({ protocol: /^https?$/ })),
});
export type Brand = z.infer<typeof brandSchema>;

export const brandRegistrySchema = z.object({
  defaultTitle: z.string().check(z.minLength(1), z.maxLength(80)),
  brands: z.array(brandSchema),
});
export type BrandRegistry = z.infer<typeof brandRegistrySchema>;

/** The registry of the local stack; operators replace it with BRANDS_FILE. */
export const defaultBrandRegistry: BrandRegistry = brandRegistrySchema.parse(defaultRegistry);

/** Host without port, lower-cased. */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0] ?? h;
}

export function brandForHost(registry: BrandRegistry, hostHeader: string | undefined): Brand | undefined {
  if (!hostHeader) return undefined;
  const host = hostName(hostHeader);
  return registry.brands.find((b) => b.host === host);
}

/** The title shown for a host: the brand's, else the registry's default. */
export function brandTitle(registry: BrandRegistry, hostHeader: string | undefined): string {
  return brandForHost(registry, hostHeader)?.title ?? registry.defaultTitle;
}
