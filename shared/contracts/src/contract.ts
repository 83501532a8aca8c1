import contract from './contract.json';
import type { MfManifest } from './manifest';

// The plain values of the shell–remote contract, apart from the schemas: a page's start-up needs
// these, and zod only once a screen checks something (see lazy.ts).

/**
 * The version of the shell–remote contract (parcel props, bus events). A remote declares the
 * version it was built against; the shell mounts only remotes with the same major version. It is
 * kept in contract.json so the plain-Node build scripts (shared/build/manifest.mjs) read the same value.
 */
export const CONTRACT_VERSION: string = contract.version;

export function contractMajor(version: string): string {
  return version.split('.')[0] ?? version;
}

export function isCompatibleContract(remoteVersion: string, shellVersion: string = CONTRACT_VERSION): boolean {
  return contractMajor(remoteVersion) === contractMajor(shellVersion);
}

/** The site's languages, English first (the fallback). */
export const LOCALES = ['en', 'ru'] as const;

/** The theme a person can choose. */
export const THEME_CHOICES = ['light', 'dark', 'system'] as const;

/** The absolute URL of a remote's container script, from its manifest and the manifest's URL. */
export function remoteEntryUrl(manifest: MfManifest, manifestUrl: string): string {
  const { remoteEntry, publicPath } = manifest.metaData;
  const file = remoteEntry.path ? `${remoteEntry.path.replace(/\/+$/, '')}/${remoteEntry.name}` : remoteEntry.name;
  const base = !publicPath || publicPath === 'auto' ? manifestUrl : new URL(publicPath, manifestUrl).href;
  return new URL(file, base).href;
}
