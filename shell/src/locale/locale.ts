import { stripLocale, type Locale } from '@app/contracts';
import { readCookie, setCookie } from './cookies';

// One parser of the locale prefix for the browser and the shell's server (@app/contracts routing).
export { localeOfPath, stripLocale } from '@app/contracts';

/** English has no prefix; Russian lives under /ru (spec §2). */
export const LOCALE_PREFIX: Record<Locale, string> = { en: '', ru: '/ru' };
export const LOCALE_COOKIE = 'lang';
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 3600;

export function withLocale(pathname: string, locale: Locale): string {
  const bare = stripLocale(pathname);
  if (locale === 'en') return bare;
  return bare === '/' ? '/ru' : `/ru${bare}`;
}

export function rememberLocale(locale: Locale, doc: Document = document): void {
  setCookie(LOCALE_COOKIE, locale, LOCALE_COOKIE_MAX_AGE, doc);
}

export function rememberedLocale(doc: Document = document): Locale | undefined {
  const value = readCookie(LOCALE_COOKIE, doc);
  return value === 'en' || value === 'ru' ? value : undefined;
}
