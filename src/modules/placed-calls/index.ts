export { schemas } from './schemas.js'
export { createPlacedCallsModule, type PlacedCallsPort } from './module.js'
