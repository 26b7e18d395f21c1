export * from './groups.js'
