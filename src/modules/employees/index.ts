export { createEmployeeRepo } from './repo.js'
export { createEmployeeService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
