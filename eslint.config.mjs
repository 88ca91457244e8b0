import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['.next/**', 'node_modules/**', '.data*/**', 'db/migrations/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', '*.config.mjs', 'bench/*.mjs', 'bench/*.cjs', 'server/testing/*.cjs', '.dependency-cruiser.cjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The layers of ARCHITECTURE.md: delivery code reaches the database only through services.
    files: ['app/**/*.{ts,tsx}', 'server/trpc/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/db', '@/db/*', '**/db/*', '../db', 'drizzle-orm', 'drizzle-orm/*', 'postgres', '@electric-sql/*'], message: 'Call a service in server/services instead of the database.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'server/testing/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
