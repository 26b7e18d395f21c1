// A transaction's work reaches the database only through the transaction: on the embedded database
// a query on the plain handle from inside it waits for the one connection the transaction holds
// (src/db/transaction-guard.ts refuses it at run time; this rule refuses it before it runs).
// A function is a transaction's work when one of its parameters is named `tx`, as every callback of
// `transaction(...)`, `transactional`'s repositories and the appeals' changes are.

const PLAIN_HANDLE = /^(db|database|repo|\w+Repo)$/

const isWork = (fn) => fn.params.some((p) => p.type === 'Identifier' && p.name === 'tx')

/** @type {import('eslint').Rule.RuleModule} */
const noPlainHandleInTransaction = {
  meta: {
    type: 'problem',
    docs: { description: 'a function given the transaction (`tx`) may not reach the plain database handle or repository of its surroundings' },
    messages: { plain: 'The transaction\'s work reaches the plain handle `{{name}}`: use the transaction\'s own (`tx`), or read it before the transaction begins' },
    schema: [],
  },
  create (context) {
    const check = (fn) => {
      if (!isWork(fn)) return
      for (const reference of context.sourceCode.getScope(fn).through) {
        const id = reference.identifier
        const parent = id.parent
        // a type named like a repository, or a factory called to make one, is no handle
        if (reference.isTypeReference || (parent.type === 'CallExpression' && parent.callee === id)) continue
        const member = parent.type === 'MemberExpression' && parent.object === id && !parent.computed ? parent.property.name : undefined
        const name = PLAIN_HANDLE.test(id.name) ? id.name : member && PLAIN_HANDLE.test(member) ? `${id.name}.${member}` : undefined
        if (name) context.report({ node: id, messageId: 'plain', data: { name } })
      }
    }
    return { ArrowFunctionExpression: check, FunctionExpression: check, FunctionDeclaration: check }
  },
}

export default { rules: { 'no-plain-handle-in-transaction': noPlainHandleInTransaction } }
