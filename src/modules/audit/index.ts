export { createAuditRepo } from './repo.js'
export { schemas } from './schemas.js'
export type { AuditPort } from './module.js'
export type { ShownRecorder } from './recorder.js'
