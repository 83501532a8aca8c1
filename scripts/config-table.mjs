// Prints the API's configuration table (api/README.md) from the configuration schema and its docs
// (api/src/config/). `--write` puts it into the README between its config-table markers; a test
// fails while the README's table differs from what this prints.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');

// The configuration is TypeScript: run under tsx's loader.
if (!process.env.CONFIG_TABLE_UNDER_TSX) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CONFIG_TABLE_UNDER_TSX: '1' },
  });
  process.exit(r.status ?? 1);
}

const { configTable } = await import('../api/src/config/table.ts');
const table = configTable();
if (process.argv.includes('--write')) {
  const readme = path.join(root, 'api/README.md');
  const text = readFileSync(readme, 'utf8');
  const section = /(<!-- config-table:start[^>]*-->\n)[\s\S]*?(\n<!-- config-table:end -->)/;
  if (!section.test(text)) {
    console.error('api/README.md has no <!-- config-table:start --> … <!-- config-table:end --> markers');
    process.exit(1);
  }
  writeFileSync(readme, text.replace(section, (_m, start, end) => `${start}${table}${end}`));
} else {
  console.log(table);
}
