import type { AppDb } from '../../db/client.js'
import type { ServiceModule } from '../../lib/module.js'
import { changesReferences, withReferences } from '../../lib/reference-cache.js'
import { createEmployeeRepo } from './repo.js'
import routes from './routes.js'
import { createEmployeeService } from './service.js'

/** the organizations' staff; a change of an account drops its kept principal (auth's port) */
export function createEmployeesModule (deps: { db: AppDb, accountChanged: (id: number) => void }): ServiceModule {
  const service = createEmployeeService({ repo: createEmployeeRepo(deps.db), principalChanged: deps.accountChanged })
  return {
    port: undefined,
    async register (app) {
      // employees are counted in the Shape B list: the writer's own copy goes before its answer
      await app.register(withReferences(changesReferences('organizations'), async (scope) => {
        await scope.register(routes, { prefix: '/api/employees', service })
      }))
    },
  }
}
