export { default as routes, schemas } from './routes.js'
