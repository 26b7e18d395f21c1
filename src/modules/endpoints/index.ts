export { createEndpointRepo } from './repo.js'
export { createEndpointService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
