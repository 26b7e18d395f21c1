import type { ServiceModule } from '../../lib/module.js'
import routes from './routes.js'

/** the console's pages (web/dist), which count their days in the centre's zone */
export function createConsoleModule (deps: { timeZone: string, websocketUrl?: string }): ServiceModule {
  return {
    port: undefined,
    async register (app) { await app.register(routes, { timeZone: deps.timeZone, websocketUrl: deps.websocketUrl }) },
  }
}
