export { createRecordingsModule } from './module.js'
export { schemas } from './schemas.js'
