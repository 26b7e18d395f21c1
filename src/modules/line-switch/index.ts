export { schemas } from './schemas.js'
export { createLineSwitchModule, type LineSwitchPort } from './module.js'
