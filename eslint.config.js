import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { folderDirectionBlocks } from './scripts/folder-directions.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.scratch*/**', '.tmp/**', 'examples/edge/.build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Plain JS scripts may import process, URL, timers explicitly from node: modules.
    files: ['**/*.js', '**/*.mjs'],
    rules: { 'no-redeclare': ['error', { builtinGlobals: false }] },
  },
  {
    // The settings page's script runs in the browser.
    files: ['assets/admin/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Scripts and benchmarks print their results to stdout; the library never does.
    files: ['bench/**', 'scripts/**', 'examples/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Folder directions (docs/architecture.md): the resolver maps our `./x.js` specifiers to `x.ts`.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.mjs'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
  },
  ...folderDirectionBlocks(),
);
