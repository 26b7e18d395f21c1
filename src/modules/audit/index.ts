export { createAuditRepo } from './repo.js'
export { schemas } from './schemas.js'
