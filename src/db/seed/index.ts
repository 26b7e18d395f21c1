// The reference seed: at a database's first start, or by `npm run seed`.
export * from './reference-seed.js'
