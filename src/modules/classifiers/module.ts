import type { AppDb } from '../../db/client.js'
import type { ServiceModule } from '../../lib/module.js'
import { referenceRoutes, withReferences } from '../../lib/reference-cache.js'
import { createClassifierRepo } from './repo.js'
import routes from './routes.js'
import { createClassifierService } from './service.js'

export type ClassifiersPort = Pick<ReturnType<typeof createClassifierService>, 'subcategoryChoices'>

export function createClassifiersModule (deps: { db: AppDb }): ServiceModule<ClassifiersPort> {
  const service = createClassifierService({ repo: createClassifierRepo(deps.db) })
  return {
    port: { subcategoryChoices: service.subcategoryChoices },
    async register (app) {
      await app.register(withReferences(referenceRoutes('classifiers'), async (scope) => {
        await scope.register(routes, { prefix: '/api/classifiers', service })
      }))
    },
  }
}
