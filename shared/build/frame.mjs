// What the shell's build hands its server (shell-server/) beside the bundle: the frame's strings,
// the start-up chunks, the runtime manifest's schemas. The file names are in outputs.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_STRINGS, STARTUP_CHUNKS } from './outputs.mjs';


/** Emits the shell's strings (English and Russian) for the server's frame. */
export class FrameStringsPlugin {
  constructor(i18nDir) {
    this.i18nDir = i18nDir;
  }

  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('FrameStringsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'FrameStringsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const strings = {};
        for (const locale of ['en', 'ru']) {
          const file = join(this.i18nDir, `${locale}.json`);
          compilation.fileDependencies.add(file);
          strings[locale] = JSON.parse(readFileSync(file, 'utf8'));
        }
        compilation.emitAsset(FRAME_STRINGS, new sources.RawSource(JSON.stringify(strings)));
      });
    });
  }
}

// What the shell needs before it renders, besides main.js: the shared singletons' chunks (loaded
// by the MF start-up) and its strings of the page's language.
export const SINGLETON_MODULE = /node_modules\/(react|react-dom|scheduler|i18next|jotai|react-router|react-router-dom|react-i18next|rxjs)\/|shared\/singletons\//;
const STRINGS_MODULE = /shell\/src\/i18n\/(en|ru)\.json$/;

/**
 * Emits startup-chunks.json: the shell's chunk files fetched at start (so the server can let
 * them download with main.js instead of after it), and each language's strings chunk.
 */
export class StartupChunksPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('StartupChunksPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'StartupChunksPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const startup = new Set();
        const strings = { en: [], ru: [] };
        for (const chunk of compilation.chunks) {
          if (chunk.hasRuntime()) continue;
          const js = [...chunk.files].filter((f) => f.endsWith('.js'));
          const resources = [...compilation.chunkGraph.getChunkModulesIterable(chunk)].flatMap((m) => [m.resource, ...(m.modules ?? []).map((n) => n.resource)]).filter(Boolean);
          if (resources.some((r) => SINGLETON_MODULE.test(r))) js.forEach((f) => startup.add(f));
          for (const r of resources) {
            const locale = STRINGS_MODULE.exec(r)?.[1];
            if (locale) strings[locale].push(...js);
          }
        }
        compilation.emitAsset(STARTUP_CHUNKS, new sources.RawSource(JSON.stringify({ startup: [...startup].sort(), strings })));
      });
    });
  }
}
