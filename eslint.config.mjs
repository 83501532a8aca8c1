import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', '**/.e2e-data/**', '**/test-results/**',
      '**/playwright-report/**', '**/.builds/**', 'api/drizzle/**', 'chain/artifacts/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
