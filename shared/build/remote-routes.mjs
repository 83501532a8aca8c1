// A remote's routes.json (the routes it owns and their first calls, kept in its own folder) is
// checked against the API's routes and published with its build beside remoteEntry.js, where
// the shell's server reads it from the deploy.
import { readFileSync } from 'node:fs';

export const REMOTE_ROUTES_FILE = 'routes.json';
const CHECK_SOURCE = new URL('../contracts/src/remote-routes.ts', import.meta.url).href;

/** The problems of a routes.json by the contracts' schema (TypeScript, loaded through tsx). */
async function problemsOf(file) {
  const { tsImport } = await import('tsx/esm/api');
  const { routesFileProblems } = await tsImport(CHECK_SOURCE, import.meta.url);
  return routesFileProblems(file);
}

export class RemoteRoutesPlugin {
  /** @param {string} source the remote's routes.json */
  constructor(source) {
    this.source = source;
  }

  apply(compiler) {
    const { Compilation, WebpackError, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('RemoteRoutesPlugin', (compilation) => {
      compilation.fileDependencies.add(this.source);
      compilation.hooks.processAssets.tapPromise({ name: 'RemoteRoutesPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        const fail = (message) => compilation.errors.push(new WebpackError(`${this.source}: ${message}`));
        let file;
        try {
          file = JSON.parse(readFileSync(this.source, 'utf8'));
        } catch (error) {
          return fail(`a remote publishes its routes in routes.json (${error.message})`);
        }
        const problems = await problemsOf(file);
        if (problems.length > 0) return fail(`not published:\n  ${problems.join('\n  ')}`);
        compilation.emitAsset(REMOTE_ROUTES_FILE, new sources.RawSource(JSON.stringify(file)));
      });
    });
  }
}

