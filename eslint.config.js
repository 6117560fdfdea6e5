// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'generated/**',
      'native/build/**',
      'data/**',
      'web/dist/**',
      '.tmp/**',
      '.runtime/**',
      'clients/*/dist/**',
      'clients/*/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Every pattern runs in linear time (no super-linear backtracking or moves), on every source file.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    // House rules: small files; every error's code, status and wording in a catalogue (errors.ts, errors/).
    files: ['**/*.{ts,mjs}'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['src/**/*.ts', 'workers/**/*.ts'],
    ignores: ['**/errors.ts', '**/errors/*.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='AppError']",
          message:
            'Name this error in its domain catalogue (errors.ts or errors/*.ts) and throw it from there.',
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'clients/*/test/**/*.ts', 'bench/**/*.ts', 'load-tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // node:test's describe/it return promises its runner awaits; the `as never` casts are needed by
    // the client's own tsc (its examples are unknown), which the root lint's type view does not share.
    files: ['clients/*/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    // Plain Node scripts outside the TypeScript project: linted without type information.
    files: [
      'eslint.config.js',
      '.dependency-cruiser.cjs',
      'scripts/**/*.mjs',
      'clients/*/scripts/**/*.mjs',
      'prisma.config.ts',
    ],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);
