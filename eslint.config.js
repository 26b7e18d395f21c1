// neostandard (standard style for TypeScript) with the project's own habits: snake_case wire names,
// a TypeBox schema and its type sharing one name, several short properties on one line.
import neostandard from 'neostandard'
import reactHooks from 'eslint-plugin-react-hooks'
import transactionWork from './eslint-rules/transaction-work.js'

export default [
  ...neostandard({ ts: true, ignores: ['node_modules', 'dist', 'web/dist', 'web/src/api/schema.d.ts', 'data', 'drizzle', 'test-results'] }),
  {
    rules: {
      camelcase: 'off',
      '@typescript-eslint/no-redeclare': 'off',
      '@stylistic/object-property-newline': 'off',
      '@stylistic/object-curly-newline': 'off',
      // `void promise` marks a fire-and-forget call on purpose
      'no-void': ['error', { allowAsStatement: true }],
    },
  },
  {
    // a transaction's work reaches the database through the transaction only (the embedded database
    // would wait on itself): eslint-rules/transaction-work.js
    files: ['src/**/*.ts'],
    plugins: { local: transactionWork },
    rules: { 'local/no-plain-handle-in-transaction': 'error' },
  },
  {
    // the console: hooks called as React requires, their dependencies complete, and what the React
    // Compiler's rules find (state set in effects, refs read in render, impure renders)
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // the console reaches the service through its API layer only (web/src/api: one module per resource,
    // every query key in keys.ts), so a page never spells a path, a request or a key of its own
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/api/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/api/client'], importNames: ['api'], message: 'Call the service through its resource module in web/src/api.' },
          { group: ['**/api/load'], message: 'Requests belong in the resource modules of web/src/api.' },
        ],
      }],
      'no-restricted-syntax': ['error', { selector: "Property[key.name='queryKey'] > ArrayExpression", message: 'Query keys are made in web/src/api/keys.ts.' }],
    },
  },
  {
    // Asterisk's dialplan spells its variables ${LIKE_THIS}: those strings are not template mistakes
    files: ['src/modules/pbx/generators.ts', 'src/modules/pbx/call-flow.ts', 'src/modules/pbx/trunk-config.ts', 'src/modules/pbx/prompt-by-phone.ts', 'src/modules/trunks/dial-patterns.ts'],
    rules: { 'no-template-curly-in-string': 'off' },
  },
  {
    // the fuzz and limit tests send numbers and strings past what JavaScript or PostgreSQL hold, on purpose
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-loss-of-precision': 'off', 'no-template-curly-in-string': 'off' },
  },
]
