// The shell's server checks a brand's runtime manifest before it puts it in the page, with the
// same zod schemas the browser would use (shared/contracts/src/manifest.ts). The server is plain
// Node, so a host's build hands it those schemas as JavaScript.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { SERVER_MANIFEST_SCHEMA } from './outputs.mjs';

const swc = createRequire(import.meta.url)('@swc/core');
const MANIFEST_SCHEMA_SOURCE = fileURLToPath(new URL('../contracts/src/manifest.ts', import.meta.url));

/**
 * Emits server/manifest-schema.mjs: the runtime manifest's zod schemas (shared/contracts), as
 * plain JavaScript for the shell's server, which checks a brand's manifest with them before it
 * puts it in the page. The browser then takes the page's copy as it is and starts without zod.
 */
export class ServerManifestSchemaPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('ServerManifestSchemaPlugin', (compilation) => {
      compilation.fileDependencies.add(MANIFEST_SCHEMA_SOURCE);
      compilation.hooks.processAssets.tap({ name: 'ServerManifestSchemaPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const { code } = swc.transformSync(readFileSync(MANIFEST_SCHEMA_SOURCE, 'utf8'), {
          filename: MANIFEST_SCHEMA_SOURCE,
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
          module: { type: 'es6' },
        });
        compilation.emitAsset(SERVER_MANIFEST_SCHEMA, new sources.RawSource(code));
      });
    });
  }
}
