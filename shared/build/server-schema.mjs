// The shell's server checks a brand's runtime manifest before it puts it in the page, with the
// same zod schemas the browser would use (shared/contracts/src/manifest.ts). The server is plain
// Node, so a host's build hands it those schemas as JavaScript.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { SERVER_BRAND_FOLDER, SERVER_MANIFEST_SCHEMA } from './outputs.mjs';

const swc = createRequire(import.meta.url)('@swc/core');
const contract = (file) => fileURLToPath(new URL(`../contracts/src/${file}`, import.meta.url));
/**
 * What the server takes from shared/contracts, as build file → source: the runtime manifest's
 * schemas, and the brand registry (its schema and checks, and the folder reader) that the API and
 * `npm run brand -- check` use too. A relative import between them gets its .mjs name.
 */
const SERVER_MODULES = {
  [SERVER_MANIFEST_SCHEMA]: contract('manifest.ts'),
  'server/brand.mjs': contract('brand.ts'),
  [SERVER_BRAND_FOLDER]: contract('brand-folder.ts'),
};

/**
 * Emits server/manifest-schema.mjs: the runtime manifest's zod schemas (shared/contracts), as
 * plain JavaScript for the shell's server, which checks a brand's manifest with them before it
 * puts it in the page. The browser then takes the page's copy as it is and starts without zod.
 */
export class ServerManifestSchemaPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('ServerManifestSchemaPlugin', (compilation) => {
      for (const source of Object.values(SERVER_MODULES)) compilation.fileDependencies.add(source);
      compilation.hooks.processAssets.tap({ name: 'ServerManifestSchemaPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        for (const [asset, source] of Object.entries(SERVER_MODULES)) {
          const { code } = swc.transformSync(readFileSync(source, 'utf8'), {
            filename: source,
            jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
            module: { type: 'es6' },
          });
          compilation.emitAsset(asset, new sources.RawSource(code.replace(/(from\s+['"]\.\/[\w-]+)(['"])/g, '$1.mjs$2')));
        }
      });
    });
  }
}
