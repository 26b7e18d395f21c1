export { createCallRoutingModule } from './module.js'
export { callRoutingSchemas } from './schemas.js'
