export { createGroupRepo } from './repo.js'
export { createGroupService } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
