export { createLineCallsModule } from './module.js'
export { schemas } from './schemas.js'
