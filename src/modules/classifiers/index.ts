export { createClassifierRepo } from './repo.js'
export { createClassifierService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
