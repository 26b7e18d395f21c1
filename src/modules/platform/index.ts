export { createPlatformRepo, telephonyEnabled, tenantStatusOf } from './repo.js'
export { createPlatformService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
