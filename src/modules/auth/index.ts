export { createAuthRepo } from './repo.js'
export { createAuthService, fullName } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
