import { liveEventSchemas } from './live-events.js'
import { schemas as callSchemas } from './schemas.js'

/** the module's shared schemas (components of the OpenAPI document): the calls' and the live stream's */
export const schemas = [...callSchemas, ...liveEventSchemas]
