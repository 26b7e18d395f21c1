// The project's own lint rules (eslint-rules/): what they refuse and what they let through.
import { describe, it } from 'node:test'
import { RuleTester } from 'eslint'
import tsParser from '@typescript-eslint/parser'
import transactionWork from '../eslint-rules/transaction-work.js'

RuleTester.describe = describe
RuleTester.it = it

const tester = new RuleTester({ languageOptions: { parser: tsParser, ecmaVersion: 2022, sourceType: 'module' } })
const rule = transactionWork.rules['no-plain-handle-in-transaction']

describe('no-plain-handle-in-transaction', () => {
  tester.run('no-plain-handle-in-transaction', rule, {
    valid: [
      'const f = (repo) => transaction(async (tx) => { const row = await tx.lock(1); return tx.update(row.id) })',
      // read before the transaction begins, then handed in
      'async function g (repo) { const calendar = await repo.calendar(); return transaction(async (tx) => tx.take(calendar)) }',
      // a factory called with the transaction's handle, a type named like a repository
      'const t = (makeRepo) => db.transaction((tx) => work(makeRepo(tx)))',
      'type AppealTxRepo = {}; const change = async (row, tx: AppealTxRepo) => tx.update(row)',
      // not a transaction's work: no `tx`
      'const plain = (repo) => () => repo.find(1)',
    ],
    invalid: [
      { code: 'const f = (repo) => transaction(async (tx) => { await tx.lock(1); return repo.find(1) })', errors: [{ messageId: 'plain', data: { name: 'repo' } }] },
      { code: 'const f = (deps) => transaction(async (tx) => deps.db.select())', errors: [{ messageId: 'plain', data: { name: 'deps.db' } }] },
      // a nested function inside the work reaches it too, as does a change given the transaction
      { code: 'const f = (db) => transaction(async (tx) => [1].map(() => db.query()))', errors: [{ messageId: 'plain', data: { name: 'db' } }] },
      { code: 'const f = (appealRepo) => transition(1, async (row, tx) => appealRepo.calendar())', errors: [{ messageId: 'plain', data: { name: 'appealRepo' } }] },
    ],
  })
})
