// Asterisk's own log, read for what it refused in the generated files.
export * from './reader.js'
