import { Linter, type Rule } from 'eslint';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 25: no literal colour in components, remotes or charts; the lint rule and the stylesheet
// check that enforce it (scripts/lint), and the design system's tokens they point to.
const root = join(__dirname, '../../..');
const tokensCss = join(root, 'shared/ui/src/styles.css');
const load = <T>(file: string): Promise<T> => import(join(root, file)) as Promise<T>;
type RuleModule = { noLiteralColour: Rule.RuleModule; stylesheetColours(css: string, o: { tokensAllowed: boolean }): string[] };
type CheckModule = { findStylesheetColours(): string[] };

function lint(rule: Rule.RuleModule, code: string) {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(code, [{ plugins: { local: { rules: { 'no-literal-colour': rule } } }, rules: { 'local/no-literal-colour': 'error' } }]).map((m) => m.line);
}

describe('colours only from design tokens', () => {
  it('the lint rule refuses a literal colour in a style object, a string and a template', async () => {
    const { noLiteralColour } = await load<RuleModule>('scripts/lint/no-literal-colour.mjs');
    const code = [
      "const a = { color: '#3b3fd8' };",
      "const b = 'rgb(0 0 0 / 0.5)';",
      'const c = `hsl(${1} 50% 50%)`;',
      "const d = { color: 'var(--primary)' };",
      "const e = 'Pool #123';",
      "const f = { border: '1px solid #3b3fd8' };",
      "const g = '#fff';",
    ].join('\n');
    expect(lint(noLiteralColour, code)).toEqual([1, 2, 3, 6, 7]);
  });

  it('the stylesheet check allows literal colours only in token declarations of the design system', async () => {
    const { stylesheetColours } = await load<RuleModule>('scripts/lint/no-literal-colour.mjs');
    const css = ".a { color: var(--text); }\n.b { background: #fff; }\n:root { --x: #000; }\n.c { box-shadow: 0 1px 2px rgb(0 0 0 / 0.2); }";
    expect(stylesheetColours(css, { tokensAllowed: true })).toEqual(['2: background: #fff', '4: box-shadow: 0 1px 2px rgb(0 0 0 / 0.2)']);
    expect(stylesheetColours(css, { tokensAllowed: false })).toHaveLength(3);
  });

  it('no stylesheet of the front ends names a colour outside the tokens', async () => {
    const { findStylesheetColours } = await load<CheckModule>('scripts/lint/stylesheet-colours.mjs');
    expect(findStylesheetColours()).toEqual([]);
  });

  it('every part of the token set is declared for both themes or for both at once', () => {
    const css = readFileSync(tokensCss, 'utf8');
    for (const token of ['surface', 'text', 'text-muted', 'border', 'primary', 'primary-text', 'success', 'warning', 'error', 'focus-ring', 'chart-1', 'chart-2', 'chart-3', 'elevation']) {
      for (const theme of ['light', 'dark']) expect(`${theme}: ${new RegExp(`\\[data-theme='${theme}'\\] \\{[^}]*--${token}:`).test(css)}`).toBe(`${theme}: true`);
    }
    for (const token of ['radius', 'space', 'font', 'font-size', 'backdrop']) expect(`${token}: ${new RegExp(`:root \\{[^}]*--${token}:`).test(css)}`).toBe(`${token}: true`);
  });
});
