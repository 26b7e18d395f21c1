import type { AppDb } from '../../db/client.js'
import type { ServiceModule } from '../../lib/module.js'
import { referenceRoutes, withReferences } from '../../lib/reference-cache.js'
import { createGroupRepo } from './repo.js'
import routes from './routes.js'
import { createGroupService } from './service.js'

export function createGroupsModule (deps: { db: AppDb }): ServiceModule {
  const service = createGroupService({ repo: createGroupRepo(deps.db) })
  return {
    port: undefined,
    async register (app) {
      await app.register(withReferences(referenceRoutes('groups'), async (scope) => {
        await scope.register(routes, { prefix: '/api/shared/groups', service })
      }))
    },
  }
}
