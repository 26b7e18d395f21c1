import type { Rule } from 'eslint'

declare const plugin: { rules: { 'no-plain-handle-in-transaction': Rule.RuleModule } }
export default plugin
