export { createLineCallsModule } from './module.js'
export { schemas } from './schemas.js'
export { CALL_EVENT_CLASSES } from './consumer.js'
