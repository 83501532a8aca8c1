// One webpack configuration for every deployable front end: the shell (the MF host) and each
// remote. Keeping it in one place means the shared singletons and MF options cannot drift apart.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompressAssetsPlugin } from './compress.mjs';
import { FrameStringsPlugin, SINGLETON_MODULE, StartupChunksPlugin } from './frame.mjs';
import { earlyProtocol } from '../contracts/src/early-protocol.mjs';
import { PagePlanPlugin } from './page-plan.mjs';
import { RemoteRoutesPlugin } from './remote-routes.mjs';
import { ServerManifestSchemaPlugin } from './server-schema.mjs';

// The singletons and the libraries they import (react-i18next: use-sync-external-store).
const STARTUP_LIBRARY = new RegExp(`${SINGLETON_MODULE.source}|node_modules/use-sync-external-store/`);

const require = createRequire(import.meta.url);
const webpack = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const TerserPlugin = require('terser-webpack-plugin');

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The front ends, their MF container names and default ports (spec of the local stack). */
export const frontends = {
  shell: { dir: 'shell', mfName: 'shell', port: 8080 },
  'mf-auth': { dir: 'mf-auth', mfName: 'mf_auth', port: 3001 },
  'mf-cabinet': { dir: 'mf-cabinet', mfName: 'mf_cabinet', port: 3002 },
  'mf-pools': { dir: 'mf-pools', mfName: 'mf_pools', port: 3003 },
  'mf-referral': { dir: 'mf-referral', mfName: 'mf_referral', port: 3004 },
  'mf-dao': { dir: 'mf-dao', mfName: 'mf_dao', port: 3005 },
  'mf-operator': { dir: 'mf-operator', mfName: 'mf_operator', port: 3006 },
};
export const remoteNames = Object.keys(frontends).filter((n) => n !== 'shell');

// Read from disk: not every package exports its package.json.
const pkgVersion = (name) => JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version;

// One copy of each in the browser. react-dom/client is listed apart from react-dom: sharing one
// does not share the other (DESIGN.md). The router, rxjs and react-i18next are shared through
// @app/singletons, which lists only what the front ends use: MF shares a module whole, without
// tree shaking, so sharing those packages themselves would load all of each on every page.
const singletons = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client', 'i18next', 'jotai',
  '@app/singletons/router', '@app/singletons/rx', '@app/singletons/react-i18n'];

/** A remote's strings in one language: src/i18n/en.json, src/i18n/ru.json. */
const REMOTE_STRINGS = /[\\/]src[\\/]i18n[\\/](en|ru)\.json$/;

const packageOf = (request) => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/');

function sharedConfig() {
  const shared = {};
  for (const name of singletons) {
    const version = pkgVersion(packageOf(name));
    shared[name] = { singleton: true, requiredVersion: `^${version.split('.')[0]}.0.0`, version };
  }
  return shared;
}

const mf = (file) => join(repoRoot, 'node_modules/@module-federation', file);
// The MF runtime is imported as ES modules by the bundler runtime and required as CommonJS by the
// plugin that hands it to the remotes; left alone, the shell would carry both builds (two copies
// of runtime-core and sdk). Every request takes the ES module build.
const mfRuntimeAsModules = {
  '@module-federation/runtime-core$': mf('runtime-core/dist/index.js'),
  '@module-federation/sdk$': mf('sdk/dist/index.js'),
  '@module-federation/error-codes$': mf('error-codes/dist/index.mjs'),
  '@module-federation/error-codes/browser$': mf('error-codes/dist/browser.mjs'),
  '@module-federation/runtime$': mf('runtime/dist/index.js'),
  '@module-federation/runtime/core$': mf('runtime/dist/core.js'),
  '@module-federation/runtime-tools/runtime-core$': mf('runtime-tools/dist/runtime-core.js'),
};

// react-router's package exports offer only its development build (with dev-time checks and
// warnings); production builds take the production files directly.
const reactRouterProduction = {
  'react-router$': join(repoRoot, 'node_modules/react-router/dist/production/index.mjs'),
  'react-router/dom$': join(repoRoot, 'node_modules/react-router/dist/production/dom-export.mjs'),
};

/**
 * @param {object} options
 * @param {keyof typeof frontends} options.app
 * @param {'production'|'development'} [options.mode]
 * @param {string} [options.outDir] where the build goes (default <app>/dist)
 * @param {string} [options.buildLabel] a label shown on the remote's pages (e.g. a canary build)
 * @param {boolean} [options.harness] a remote built to run alone, with the harness as its page
 * @param {{ dir: string, mfName: string, host: boolean }} [options.frontend] a front end outside
 *   the product (the load benchmark's control page), built the same way: a host like the shell
 *   (src/index.ts, src/index.html) or a remote (src/lifecycles.tsx)
 */
export function createConfig({ app, mode = 'production', outDir, buildLabel = '', harness = false, frontend }) {
  const fe = frontend ?? frontends[app];
  const dir = join(repoRoot, fe.dir);
  const isShell = frontend ? frontend.host : app === 'shell';
  const prod = mode === 'production';

  const entry = isShell || harness ? { main: join(dir, isShell ? 'src/index.ts' : 'src/harness/index.ts') } : {};

  return {
    name: app,
    mode,
    context: dir,
    entry,
    devtool: process.env.SOURCE_MAPS ? 'source-map' : prod ? false : 'eval-cheap-module-source-map',
    output: {
      path: outDir ?? join(dir, 'dist'),
      // Remotes are served from their own origin: 'auto' resolves chunk URLs from where the
      // container script was loaded, so the same build works under any host or port.
      publicPath: isShell || harness ? '/' : 'auto',
      // The entry keeps a stable name (the MF async start-up runtime cannot template a content
      // hash into it); index.html and remoteEntry.js are served with no-cache instead.
      filename: '[name].js',
      chunkFilename: prod ? '[name].[contenthash:8].js' : '[name].js',
      uniqueName: fe.mfName,
      clean: true,
    },
    resolve: {
      alias: { ...mfRuntimeAsModules, ...(prod ? reactRouterProduction : {}) },
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      // rxjs's default export condition is its ES5 build, which needs tslib's class helpers.
      conditionNames: ['es2015', '...'],
    },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !prod } },
                target: 'es2022',
              },
            },
          },
        },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(svg|png|jpe?g|webp)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new webpack.DefinePlugin({
        __BUILD_LABEL__: JSON.stringify(buildLabel),
        __REMOTE_NAME__: JSON.stringify(app),
      }),
      new MiniCssExtractPlugin({
        filename: prod ? '[name].[contenthash:8].css' : '[name].css',
        chunkFilename: prod ? '[name].[contenthash:8].css' : '[name].css',
      }),
      new ModuleFederationPlugin({
        name: fe.mfName,
        // A remote in its harness is a plain page: it imports its lifecycles itself.
        ...(isShell || harness ? {} : { exposes: { './app': join(dir, 'src/lifecycles.tsx') }, filename: 'remoteEntry.js' }),
        // The shell is built with no remote URLs: it reads them from /remotes.json at run time.
        remotes: {},
        shared: sharedConfig(),
        shareStrategy: 'loaded-first',
        manifest: isShell || harness ? false : { fileName: 'mf-manifest.json' },
        dts: false,
        dev: false,
        experiments: {
          // A dead remote must not block start-up.
          asyncStartup: true,
          // Browser builds only: leaves out the runtime's Node loaders.
          // No manifest snapshots: the shell reads each remote's mf-manifest.json itself. A
          // remote loads no remotes of its own, so its container leaves that code out.
          optimization: { target: 'web', disableSnapshot: true, disableRemote: !isShell },
          // One MF runtime in the page: the shell provides it, remotes use it.
          ...(isShell || harness ? { provideExternalRuntime: true } : { externalRuntime: true }),
        },
      }),
      ...(isShell || harness
        ? [new HtmlWebpackPlugin({ template: join(isShell ? dir : join(repoRoot, 'shared/build'), isShell ? 'src/index.html' : 'harness.html'), inject: 'body', scriptLoading: 'defer', templateParameters: { early: earlyProtocol } })]
        : []),
      ...(app === 'shell' ? [new FrameStringsPlugin(join(dir, 'src/i18n')), new StartupChunksPlugin(), new PagePlanPlugin(join(dir, 'page-plan.json'))] : []),
      ...(isShell ? [new ServerManifestSchemaPlugin()] : []),
      // A remote's routes and first calls, from its own folder, beside its remoteEntry.js.
      ...(isShell || harness ? [] : [new RemoteRoutesPlugin(join(dir, 'routes.json'))]),
      ...(prod ? [new CompressAssetsPlugin()] : []),
    ],
    optimization: {
      moduleIds: 'deterministic',
      chunkIds: 'deterministic',
      // A remote's strings (src/i18n/<language>.json) go in chunks named after their language, so
      // the shell's server can find them in the remote's mf-manifest.json and have the browser
      // fetch them with the remote's code instead of after it starts.
      // The shell's zod is a chunk of its own, named so its server can hint it with the schemas
      // that need it: no page's start-up carries it (shared/contracts/src/lazy.ts).
      // The shell's shared singletons (React, ReactDOM, the router, i18next, jotai, rxjs, and what
      // they import) are one chunk, where MF would give each its own: every page starts with all
      // of them, and one file instead of ten costs a page less, a warm visit most (each file has
      // its own fetch, response and script task on the main thread; the measurements are in
      // docs/benchmarks.md).
      ...(isShell
        ? {
            splitChunks: {
              cacheGroups: {
                zod: { test: /[\\/]node_modules[\\/]zod[\\/]/, chunks: 'async', enforce: true, name: 'zod' },
                ...(app === 'shell' ? { singletons: { test: (module) => STARTUP_LIBRARY.test(module.resource ?? ''), chunks: 'async', enforce: true, name: 'singletons' } } : {}),
              },
            },
          }
        : {}),
      ...(isShell || harness ? {} : { splitChunks: { cacheGroups: { strings: { test: REMOTE_STRINGS, chunks: 'async', enforce: true, name: (module) => `strings-${REMOTE_STRINGS.exec(module.resource)[1]}` } } } }),
      // swc's minifier: several times faster than terser on these two-core machines.
      minimizer: [new TerserPlugin({ minify: TerserPlugin.swcMinify, extractComments: false, terserOptions: { compress: { passes: 2 } } })],
    },
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  };
}
