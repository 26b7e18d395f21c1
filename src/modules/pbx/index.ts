export { createPbxRepo } from './repo.js'
export { createPbxService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
