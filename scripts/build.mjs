// Production build of the shell and every remote, each into its own dist/ (or --out DIR/<app>).
// Usage: node scripts/build.mjs [app ...] [--mode development] [--label TEXT] [--out DIR]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createConfig, frontends } from '../shared/build/index.mjs';

const require = createRequire(import.meta.url);
const webpack = require('webpack');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { mode: { type: 'string', default: 'production' }, label: { type: 'string', default: '' }, out: { type: 'string' }, stats: { type: 'string' } },
});
const apps = positionals.length ? positionals : Object.keys(frontends);
for (const app of apps) if (!frontends[app]) throw new Error(`unknown app ${app}`);

export function build(configs) {
  return new Promise((resolve, reject) => {
    const compiler = webpack(configs);
    // Two builds at a time: the machines here have two cores.
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) return reject(error);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true, errorDetails: true })));
      resolve(stats);
    });
  });
}

const started = Date.now();
const configs = apps.map((app) =>
  createConfig({ app, mode: values.mode, buildLabel: values.label, outDir: values.out ? join(values.out, app) : undefined }),
);
configs.parallelism = 2;
try {
  const stats = await build(configs);
  if (values.stats) {
    // Which modules went into which file: the size benchmark splits each file by it.
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(values.stats, { recursive: true });
    for (const child of stats.stats) {
      const json = child.toJson({ all: false, chunks: true, chunkModules: true, nestedModules: true, ids: true, chunkModulesSpace: 1e6, nestedModulesSpace: 1e6, modulesSpace: 1e6, dependentModules: true, excludeModules: false, cachedModules: true, runtimeModules: true, orphanModules: true });
      const chunks = json.chunks.map((c) => ({ files: c.files, modules: (c.modules ?? []).flatMap((m) => (m.modules?.length ? m.modules : [m])).map((m) => ({ name: m.name || m.identifier || '', size: m.size ?? 0 })) }));
      writeFileSync(join(values.stats, `${child.compilation.name}.json`), JSON.stringify({ chunks }));
    }
  }
  console.log(`built ${apps.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error.message ?? error);
  process.exit(1);
}
