export { createAppealRepo } from './repo.js'
export { centreStaffCheck, createAppealService, type AppealLiveEvent } from './service.js'
export { schemas } from './schemas.js'
export { default as routes } from './routes.js'
