export * from './groups.js'
export * from './organizations.js'
export * from './users.js'
