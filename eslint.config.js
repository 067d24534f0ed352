import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'packages/integrations/*/fixtures/**',
      '**/.objpack/**',
      '.example-out/**',
      'benchmarks/results/**',
      'fixtures/**/site/**',
      'fixtures/**/*.js',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Prettier wraps code at 120; comments and string literals it leaves alone are held to the same width.
      'max-len': ['error', { code: 120, comments: 120, tabWidth: 2, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // Fixtures keep the layout their generators and sites were written in (Prettier leaves them alone too).
    files: ['fixtures/**'],
    rules: { 'max-len': 'off' },
  },
  {
    // Library code never prints: the CLI's logger is the one place that writes to the terminal.
    files: ['packages/*/src/**/*.ts', 'packages/integrations/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/cli/src/cli/**', 'packages/*/src/test-utils/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // The format core runs in a service worker: no Node built-ins outside its Node adapter.
    files: ['packages/format/src/**/*.ts', 'packages/client-sw/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'packages/format/src/node.ts',
      'packages/client-sw/src/assets.ts',
      'packages/*/src/test-utils/**',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: ['node:*'] }] },
  },
  {
    // Small files named for what they hold: one over 400 lines holds more than one thing.
    files: ['packages/**/*.ts', 'benchmarks/**/*.{ts,mjs,js}', 'scripts/**/*.{ts,mjs,js}'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
);
