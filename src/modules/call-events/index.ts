export { createCallRepo } from './repo.js'
export { createCallEventService } from './service.js'
import { schemas as callSchemas } from './schemas.js'
import { liveEventSchemas } from './live-events.js'
export const schemas = [...callSchemas, ...liveEventSchemas]
export { default as routes } from './routes.js'
export { createLiveEvents } from './live.js'
