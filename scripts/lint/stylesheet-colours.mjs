// Part of `npm run lint`: no literal colour in the front ends' stylesheets. The design system's
// stylesheet (shared/ui/src/styles.css) declares the tokens; every other rule uses them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stylesheetColours } from './no-literal-colour.mjs';

const root = new URL('../..', import.meta.url).pathname;
const TOKENS = 'shared/ui/src/styles.css';

function cssFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.name === 'node_modules' || d.name === 'dist') return [];
    const p = join(dir, d.name);
    return d.isDirectory() ? cssFiles(p) : d.name.endsWith('.css') ? [p] : [];
  });
}

export function findStylesheetColours() {
  const dirs = ['shell/src', 'shared/ui/src', ...readdirSync(root).filter((d) => d.startsWith('mf-')).map((d) => `${d}/src`)];
  const problems = [];
  for (const file of dirs.flatMap((d) => cssFiles(join(root, d)))) {
    const name = relative(root, file);
    for (const p of stylesheetColours(readFileSync(file, 'utf8'), { tokensAllowed: name === TOKENS })) problems.push(`${name}:${p}`);
  }
  return problems;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const problems = findStylesheetColours();
  for (const p of problems) console.error(`${p}\n  a literal colour: use a design token (var(--…) from ${TOKENS})`);
  process.exit(problems.length ? 1 : 0);
}
