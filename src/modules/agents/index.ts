export { createAgentsModule, type AgentsPort } from './module.js'
export { schemas } from './schemas.js'
