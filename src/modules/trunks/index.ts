export { schemas } from './schemas.js'
export { createTrunksModule } from './module.js'
