// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The `no-restricted-imports` rule forbidding, from files that `who` names, a relative import of server
 * code (server/, kernel/server/, kernel/hooks/), plus the `extra` patterns.
 * @param {string} who the files in the message, e.g. 'src/'
 * @param {object[]} extra further patterns of @typescript-eslint/no-restricted-imports
 */
const noServerImports = (who, extra) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '^(\\.\\./)+(server|kernel/server|kernel/hooks)(/|$)',
          message: `${who} must not import server code (server/, kernel/server/, kernel/hooks/): move the shared code to common/ or kernel/dialect/.`,
        },
        ...extra,
      ],
    },
  ],
});

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
    // The console never imports server code: what both sides need lives in common/ (e.g. common/ledger/)
    // or in the kernel's dialect (kernel/dialect/); tests/unit/imports.test.ts checks the same over every
    // file of src/. And it runs precompiled validators (kernel/dialect/schemaRegistry.ts formValidatorFor):
    // no ajv compiler in its bundle, so its CSP needs no 'unsafe-eval' (tests/unit/console-bundle.test.ts).
    // common/ and kernel/dialect/ are loaded by the console too: they import no server code either.
    files: ['src/**/*.{ts,tsx}', 'common/**/*.ts', 'kernel/dialect/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: noServerImports('The console (src/, common/, kernel/dialect/)', [
      {
        regex: '^(\\.\\./)*(server|hooks)(/|$)',
        message: 'kernel/dialect/ must not import kernel/server/ or kernel/hooks/.',
      },
    ]),
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: noServerImports('src/', [
      {
        group: [
          'ajv',
          'ajv/*',
          'ajv-formats',
          '**/kernel/dialect/schemaCompiler',
          '**/kernel/dialect/validators',
          '**/kernel/dialect/keywords',
        ],
        allowTypeImports: true,
        message:
          'The console must not load ajv: validate with formValidatorFor (kernel/dialect/schemaRegistry.ts).',
      },
    ]),
  },
);
