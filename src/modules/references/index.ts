export { createReferenceRepo } from './repo.js'
export { createReferenceService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
