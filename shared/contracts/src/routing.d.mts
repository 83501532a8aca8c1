// Types of routing.mjs (JavaScript so that the shell's server imports it as it is).
import type { Locale } from './bus';

export function localeOfPath(pathname: string): Locale;
export function stripLocale(pathname: string): string;
export function matchRoute(pattern: string, path: string): Record<string, string> | undefined;
export function routeOwner<R extends { path: string }, E extends { routes: readonly R[] }>(
  manifest: { remotes: readonly E[] } | undefined,
  pathname: string,
): { remote: E; route: R; params: Record<string, string> } | undefined;
