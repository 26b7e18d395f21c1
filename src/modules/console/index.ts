export { CONSOLE_BUILD, default as routes } from './routes.js'
