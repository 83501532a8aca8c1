import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import boundaries from 'eslint-plugin-boundaries';
import local from './scripts/lint/no-literal-colour.mjs';

// Files of a capability that are entries rather than its library: its routes and its command line.
const ENTRIES = '{routes.ts,operator-routes.ts,cli.ts}';
// The remotes and the shell by package name (relative paths are caught as elements).
const FRONT_ENDS = ['@app/mf-*', '@app/shell', '@app/shell-server'];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', '**/.e2e-data/**', '**/test-results/**',
      '**/playwright-report/**', '**/.builds/**', 'api/drizzle/**', 'chain/artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Issue 25: colours only from design tokens in the front ends' code (components, remotes and
    // charts), so every brand's theme reaches every part. Tests may name colours to check them.
    files: ['shell/src/**/*.{ts,tsx}', 'mf-*/src/**/*.{ts,tsx}', 'shared/ui/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    plugins: { local },
    rules: { 'local/no-literal-colour': 'error' },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { react, 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    settings: { react: { version: '19' } },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...jsxA11y.configs.recommended.rules,
      'react/prop-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Front-end code reaches the router, rxjs and react-i18next through @app/singletons, the
    // narrow surfaces the shell shares; importing a package itself would pull all of it into
    // the shared copy (or a second copy into a remote).
    files: ['shell/**/*.{ts,tsx}', 'mf-*/**/*.{ts,tsx}', 'shared/ui/**/*.{ts,tsx}', 'shared/contracts/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'react-router', message: "Import from '@app/singletons/router'." },
          { name: 'react-router-dom', message: "Import from '@app/singletons/router'." },
          { name: 'rxjs', message: "Import from '@app/singletons/rx'." },
          { name: 'rxjs/operators', message: "Import from '@app/singletons/rx'." },
          { name: 'react-i18next', message: "Import from '@app/singletons/react-i18n'." },
        ],
      }],
    },
  },
  {
    // The boundaries. In the API, routes call capabilities, capabilities call the ledger, the chain
    // reader and the database, never the other way; a capability is used only through its
    // index.ts. In the front ends, a remote never imports another remote or the shell, and the
    // shared packages import neither. Tests are no element and may reach anything.
    files: ['api/src/**/*.ts', 'shell/**/*.{ts,tsx}', 'mf-*/**/*.{ts,tsx}', 'shared/**/*.{ts,tsx,js,mjs}', 'shell-server/**/*.mjs'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/elements': [
        { type: 'api-routes', pattern: 'api/src/routes', partialMatch: false },
        { type: 'api-http', pattern: 'api/src/http', partialMatch: false },
        { type: 'api-ledger', pattern: 'api/src/ledger', partialMatch: false },
        { type: 'api-chain', pattern: 'api/src/chain', partialMatch: false },
        { type: 'api-db', pattern: 'api/src/db', partialMatch: false },
        // The configuration, in slices: part of the composition root, which hands it out.
        { type: 'api-config', pattern: 'api/src/config', partialMatch: false },
        { type: 'api-capability', pattern: 'api/src/*', capture: ['capability'], partialMatch: false },
        // The composition root: the files directly in api/src.
        { type: 'api-app', pattern: 'api/src', partialMatch: false },
        { type: 'remote', pattern: 'mf-*', capture: ['remote'], partialMatch: false },
        { type: 'shell', pattern: 'shell', partialMatch: false },
        // The shell's production server: it reads the shell's build and the remotes' deploys, never their source.
        { type: 'shell-server', pattern: 'shell-server', partialMatch: false },
        { type: 'shared', pattern: 'shared/*', capture: ['package'], partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'allow',
        // Workspace packages resolve through node_modules: the front ends named by package too.
        checkAllOrigins: true,
        // Within an element too: a capability's library never imports its own routes.
        checkInternals: true,
        policies: [
          {
            disallow: { to: { element: { type: 'api-capability', fileInternalPath: `!{index.ts,${ENTRIES.slice(1)}` } } },
            message: 'import {{to.element.captured.capability}}/ through its index.ts, its public surface, not {{to.element.fileInternalPath}}',
          },
          {
            // Inside one element anything reaches the rest of it, but for the arrows below.
            allow: { dependency: { relationship: { to: 'internal' } } },
          },
          {
            from: { element: { type: 'api-db' } },
            disallow: { to: { element: { type: ['api-app', 'api-config', 'api-routes', 'api-http', 'api-capability', 'api-ledger', 'api-chain'] } } },
            message: 'db/ is the bottom layer: it imports nothing else of the API',
          },
          {
            from: { element: { type: 'api-chain' } },
            disallow: { to: { element: { type: ['api-app', 'api-config', 'api-routes', 'api-http', 'api-capability', 'api-ledger'] } } },
            message: 'chain/ reads the chain: of the API it may import db/ only',
          },
          {
            from: { element: { type: 'api-ledger' } },
            disallow: { to: { element: { type: ['api-app', 'api-config', 'api-routes', 'api-http', 'api-capability'] } } },
            message: 'the ledger sits under the capabilities: it may import db/ and chain/ only',
          },
          {
            from: { element: { type: 'api-http' } },
            disallow: { to: { element: { type: ['api-app', 'api-config', 'api-routes', 'api-capability'] } } },
            message: 'http/ is the request toolkit under the routes: of a capability it may import types only',
          },
          {
            from: { element: { type: 'api-http' } },
            allow: { to: { element: { type: 'api-capability', fileInternalPath: 'index.ts' } }, dependency: { kind: 'type' } },
          },
          {
            from: { element: { type: 'api-capability', fileInternalPath: `!${ENTRIES}` } },
            disallow: [{ to: { element: { type: ['api-app', 'api-config', 'api-routes'] } } }, { to: { element: { type: 'api-capability', fileInternalPath: ENTRIES } } }],
            message: 'a capability never imports routes or the composition root (routes → capabilities → ledger/db)',
          },
          {
            // The services container is handed to capabilities and routes; they may name its type.
            from: { element: { type: ['api-capability', 'api-routes'] } },
            allow: { to: { element: { type: 'api-app', fileInternalPath: 'services.ts' } }, dependency: { kind: 'type' } },
          },
          {
            // A command line reads the configuration like the server does.
            from: { element: { type: 'api-capability', fileInternalPath: 'cli.ts' } },
            allow: { to: { element: { type: 'api-config', fileInternalPath: 'index.ts' } } },
          },
          {
            from: { element: { type: 'api-routes' } },
            disallow: [{ to: { element: { type: 'api-app', fileInternalPath: '!{services,background}.ts' } } }, { to: { element: { type: 'api-config' } } }],
            message: 'routes import capabilities, not the composition root',
          },
          {
            from: { element: { type: 'remote' } },
            disallow: [{ to: { element: { type: ['remote', 'shell'] } } }, { to: { module: { origin: 'external', source: FRONT_ENDS } } }],
            message: 'a remote never imports another remote or the shell: share through shared/ or the bus',
          },
          {
            from: { element: { type: 'shared' } },
            disallow: [{ to: { element: { type: ['remote', 'shell', 'shell-server'] } } }, { to: { module: { origin: 'external', source: FRONT_ENDS } } }],
            message: 'a shared package never imports a remote or the shell',
          },
          {
            from: { element: { type: 'shell-server' } },
            disallow: [{ to: { element: { type: ['remote', 'shell'] } } }, { to: { module: { origin: 'external', source: ['@app/mf-*', '@app/shell'] } } }],
            message: "the shell's server reads the shell's build and the remotes' deploys, never their source",
          },
          {
            // ... but a front end reaches the rest of its own package.
            from: { element: { type: ['remote', 'shared', 'shell-server'] } },
            allow: { dependency: { relationship: { to: 'internal' } } },
          },
        ],
      }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
