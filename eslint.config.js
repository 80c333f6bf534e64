// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'coverage',
      'common/generated',
      'src/generated',
      'server/ledger/generated',
      'server/dist',
      'dist-*',
      'server/dist-*',
      'release',
      '.tmp',
      'server/.bundle-test-*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The console never imports server code: what both sides need lives in common/ (e.g. common/ledger/);
    // tests/unit/imports.test.ts checks the same over every file of src/. And it runs precompiled
    // validators (common/schemaRegistry.ts formValidatorFor): no ajv compiler in its bundle, so its CSP
    // needs no 'unsafe-eval' (tests/unit/console-bundle.test.ts).
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+server(/|$)',
              message: 'src/ must not import from server/: move the shared code to common/.',
            },
            {
              group: [
                'ajv',
                'ajv/*',
                'ajv-formats',
                '**/common/schemaCompiler',
                '**/common/validators',
                '**/common/keywords',
              ],
              allowTypeImports: true,
              message:
                'The console must not load ajv: validate with formValidatorFor (common/schemaRegistry.ts).',
            },
          ],
        },
      ],
    },
  },
);
