export { createAuditRepo } from './repo.js'
export { schemas } from './schemas.js'
export type { AuditPort } from './module.js'
export type { PurgeRecorder, ShownRecorder } from './recorder.js'
