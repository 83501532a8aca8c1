import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configDocs, envSchema } from '../src/config';

const root = path.resolve(__dirname, '../..');
const readme = readFileSync(path.join(root, 'api/README.md'), 'utf8');
/** The table between the README's markers, as written there. */
const readmeTable = /<!-- config-table:start[^>]*-->\n([\s\S]*?)\n<!-- config-table:end -->/.exec(readme)?.[1];

describe('the configuration table in api/README.md', () => {
  it('names every variable of the configuration schema once, and nothing else (a new variable cannot be left out)', () => {
    expect(readmeTable).toBeDefined();
    // The first cell of each row, read from the README itself: `A` / `B` names two variables.
    const named = (readmeTable ?? '')
      .split('\n')
      .slice(2)
      .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]));
    const variables = Object.keys(envSchema.shape);
    expect([...named].sort()).toEqual([...variables].sort());
    expect(new Set(named).size).toBe(named.length);
    // The docs beside the schema cover it the same way.
    expect(configDocs.flatMap((d) => d.vars).sort()).toEqual([...variables].sort());
  });

  it('is exactly what scripts/config-table.mjs prints from the schema', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/config-table.mjs')], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // Mend with `node scripts/config-table.mjs --write`.
    expect(readmeTable).toBe(run.stdout.trimEnd());
  });
});
