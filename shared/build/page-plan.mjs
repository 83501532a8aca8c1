// The shell's page plan (shell/page-plan.json): which of its named chunks its server hints on a
// cabinet page, prefetches when idle and has the service worker keep. The shell names the chunks
// (webpackChunkName); the build checks each is one of them, adds the calls whose schemas are in
// the cabinet's own chunk (the contracts' cabinetRoutes), and hands the plan to the server.
import { readFileSync } from 'node:fs';
import { PAGE_PLAN } from './outputs.mjs';

const CABINET_ROUTES = new URL('../contracts/src/api/cabinet-routes.ts', import.meta.url).href;
const EARLY_PROTOCOL = new URL('../contracts/src/early-protocol.mjs', import.meta.url).href;

export class PagePlanPlugin {
  /** @param {string} source the shell's page-plan.json */
  constructor(source) {
    this.source = source;
  }

  apply(compiler) {
    const { Compilation, WebpackError, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PagePlanPlugin', (compilation) => {
      compilation.fileDependencies.add(this.source);
      compilation.hooks.processAssets.tapPromise({ name: 'PagePlanPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, async () => {
        const plan = JSON.parse(readFileSync(this.source, 'utf8'));
        const named = new Set([...compilation.namedChunks.keys()]);
        const unknown = [...plan.inner, plan.allCallSchemas, ...plan.idle, ...plan.precache].filter((name) => !named.has(name));
        if (unknown.length > 0) {
          compilation.errors.push(new WebpackError(`${this.source}: no chunk of the shell is named ${[...new Set(unknown)].join(', ')}`));
          return;
        }
        const { tsImport } = await import('tsx/esm/api');
        const { cabinetRoutes } = await tsImport(CABINET_ROUTES, import.meta.url);
        const { apiBasePath } = await import(EARLY_PROTOCOL);
        const cabinetCalls = Object.values(cabinetRoutes)
          .filter((route) => route.method === 'GET')
          .map((route) => `${apiBasePath}${route.path}`);
        compilation.emitAsset(PAGE_PLAN, new sources.RawSource(JSON.stringify({ ...plan, cabinetCalls })));
      });
    });
  }
}
