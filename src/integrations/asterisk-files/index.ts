// The generated Asterisk configuration's files: written whole and durably, the previous kept.
export * from './config-tree.js'
