export { createLlmRepo } from './repo.js'
export { createLlmService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
