import en from './locales/en.json';
import ru from './locales/ru.json';

/**
 * Strings more than one part of the site shows, in the 'common' namespace. The validation and
 * server messages live with the API contract (shared/contracts/src/api/messages.ts), in both
 * languages, so forms and server answers read the same.
 */
export const commonTranslations = { en, ru } as const;
export const COMMON_NAMESPACE = 'common';

type Tree = { [key: string]: string | Tree };

/** Every key path of a translation tree, e.g. 'validation.required'. */
export function keyPaths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}

/** The keys one language has and the other lacks, and values left empty. */
export function translationGaps(en: Tree, ru: Tree): string[] {
  const a = new Set(keyPaths(en));
  const b = new Set(keyPaths(ru));
  // Languages have different plural forms (Russian adds _few and _many to English's _one and
  // _other): a plural form counts as present when the other language has any form of that key.
  const pluralBase = (k: string) => /^(.*)_(zero|one|two|few|many|other)$/.exec(k)?.[1];
  const bases = (keys: Set<string>) => new Set([...keys].map(pluralBase).filter((k): k is string => k !== undefined));
  const aBases = bases(a);
  const bBases = bases(b);
  const missing = (k: string, other: Set<string>, otherBases: Set<string>) => !other.has(k) && !(pluralBase(k) !== undefined && otherBases.has(pluralBase(k)!));
  const gaps = [...a].filter((k) => missing(k, b, bBases)).map((k) => `missing in ru: ${k}`);
  gaps.push(...[...b].filter((k) => missing(k, a, aBases)).map((k) => `missing in en: ${k}`));
  return gaps;
}
