import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

export type Locale = 'en' | 'ru';

type Json = { [key: string]: string | Json };

/** The remote's own translation file: the tests expect what its translators wrote. */
function strings(remote: string, locale: Locale): Json {
  return JSON.parse(readFileSync(join(repoRoot, remote, 'src/i18n', `${locale}.json`), 'utf8')) as Json;
}

function lookup(json: Json, key: string): string {
  let node: string | Json | undefined = json;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no string ${key}`);
  return node;
}

function title(remote: string, locale: Locale, key: string, vars: Record<string, string> = {}): string {
  return lookup(strings(remote, locale), key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}

function poolTitle(locale: Locale, kind: string): string {
  return title('mf-pools', locale, 'pool.title', { pool: lookup(strings('mf-pools', locale), `kinds.${kind}`) });
}

export interface RouteCase {
  /** The path a visitor opens, without the locale prefix. */
  path: string;
  /** Where the site settles (a redirect), without the locale prefix. */
  settlesAt: string;
  remote: string;
  layout: 'auth' | 'inner';
  heading: Record<Locale, string>;
}

function route(path: string, remote: string, layout: 'auth' | 'inner', heading: (l: Locale) => string, settlesAt = path): RouteCase {
  return { path, settlesAt, remote, layout, heading: { en: heading('en'), ru: heading('ru') } };
}

/** Every route of spec §2, with the h1 its remote shows. */
export const routes: RouteCase[] = [
  route('/', 'mf-auth', 'auth', (l) => title('mf-auth', l, 'home.title')),
  route('/sign-in', 'mf-auth', 'auth', (l) => title('mf-auth', l, 'signIn.title')),
  route('/sign-up', 'mf-auth', 'auth', (l) => title('mf-auth', l, 'signUp.title')),
  route('/password-recovery', 'mf-auth', 'auth', (l) => title('mf-auth', l, 'recovery.title')),
  route('/registration-confirm', 'mf-auth', 'auth', (l) => title('mf-auth', l, 'confirm.title')),
  route('/cabinet', 'mf-cabinet', 'inner', (l) => title('mf-cabinet', l, 'dashboard.title'), '/cabinet/dashboard'),
  route('/cabinet/dashboard', 'mf-cabinet', 'inner', (l) => title('mf-cabinet', l, 'dashboard.title')),
  route('/cabinet/pools', 'mf-pools', 'inner', (l) => title('mf-pools', l, 'overview.title')),
  route('/cabinet/pools/stable', 'mf-pools', 'inner', (l) => poolTitle(l, 'stable')),
  route('/cabinet/pools/coin', 'mf-pools', 'inner', (l) => poolTitle(l, 'coin')),
  route('/cabinet/pools/dex', 'mf-pools', 'inner', (l) => poolTitle(l, 'dex')),
  route('/cabinet/affiliates', 'mf-referral', 'inner', (l) => title('mf-referral', l, 'affiliates.title')),
  route('/cabinet/refferal', 'mf-referral', 'inner', (l) => title('mf-referral', l, 'referral.title')),
  route('/cabinet/dao', 'mf-dao', 'inner', (l) => title('mf-dao', l, 'dao.title')),
  route('/cabinet/settings', 'mf-dao', 'inner', (l) => title('mf-dao', l, 'settings.title')),
];

export const localized = (path: string, locale: Locale) => (locale === 'en' ? path : path === '/' ? '/ru' : `/ru${path}`);

/** The shell's own strings (layout, sidebar, error pages). */
export function shellText(locale: Locale, key: string): string {
  return remoteText('shell', locale, key);
}

/** A remote's own words (e.g. `remoteText('mf-auth', 'ru', 'signIn.submit')`), so tests find fields as a person does. */
export function remoteText(remote: string, locale: Locale, key: string): string {
  return lookup(strings(remote, locale), key);
}
