export { createCallRepo } from './repo.js'
export { createCallEventService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
