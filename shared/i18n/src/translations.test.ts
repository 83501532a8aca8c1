import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyPaths, translationGaps } from './index';

const root = join(__dirname, '../../..');
// Every translation file pair of the site: each user-visible string exists in both languages.
const pairs = [
  'shared/i18n/src/locales',
  'shell/src/i18n',
  'mf-auth/src/i18n',
  'mf-cabinet/src/i18n',
  'mf-pools/src/i18n',
  'mf-referral/src/i18n',
  'mf-dao/src/i18n',
  'mf-operator/src/i18n',
];

const load = (dir: string, lng: string) => JSON.parse(readFileSync(join(root, dir, `${lng}.json`), 'utf8'));

describe.each(pairs)('translations in %s', (dir) => {
  it('has every key in English and Russian, none empty', () => {
    const en = load(dir, 'en');
    const ru = load(dir, 'ru');
    expect(translationGaps(en, ru)).toEqual([]);
    const empty = keyPaths(ru).filter((k) => !k.split('.').reduce((t, p) => t[p], ru));
    expect(empty).toEqual([]);
  });
});

it('finds a key missing from one language', () => {
  expect(translationGaps({ a: 'x', b: { c: 'y' } }, { a: 'x' })).toEqual(['missing in ru: b.c']);
});

it("takes Russian's extra plural forms as the same key, but not a plural the other language lacks entirely", () => {
  expect(translationGaps({ n_one: 'a', n_other: 'b' }, { n_one: 'а', n_few: 'б', n_many: 'в', n_other: 'г' })).toEqual([]);
  expect(translationGaps({ a: 'x' }, { a: 'x', m_few: 'y' })).toEqual(['missing in en: m_few']);
});
