// Development server for one front end. A remote runs alone inside a harness that stands in for
// the shell (`npm run dev -w mf-pools`); the shell runs against the remotes in shell/remotes.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createConfig, frontends, repoRoot } from './index.mjs';

const require = createRequire(import.meta.url);
const webpack = require('webpack');
const WebpackDevServer = require('webpack-dev-server');

const app = process.argv[2];
if (!frontends[app]) {
  console.error(`usage: node shared/build/dev.mjs <${Object.keys(frontends).join('|')}>`);
  process.exit(2);
}
const isShell = app === 'shell';
const config = createConfig({ app, mode: 'development', harness: !isShell });
const port = Number(process.env.PORT ?? frontends[app].port);
const server = new WebpackDevServer(
  {
    port,
    host: '127.0.0.1',
    hot: false,
    historyApiFallback: true,
    headers: { 'Access-Control-Allow-Origin': '*' },
    static: isShell ? [{ directory: join(repoRoot, 'shell/remotes'), publicPath: '/' }] : false,
    proxy: [{ context: ['/api'], target: process.env.API_URL ?? 'http://127.0.0.1:4000' }],
    // Rebuilds on save; reload the page by hand (no dev-server client in the page).
    webSocketServer: false,
    liveReload: false,
  },
  webpack(config),
);
await server.start();
console.log(`${app} (development${isShell ? '' : ', in its harness'}) at http://localhost:${port}`);
