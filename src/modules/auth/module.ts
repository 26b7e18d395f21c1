import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../db/client.js'
import { transactional } from '../../db/client.js'
import { createNotifier, type Notifier } from '../../db/notify.js'
import type { Mailer } from '../../integrations/mail/index.js'
import { authPlugin } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { createInvalidatedCache } from '../../lib/invalidated-cache.js'
import type { ServiceModule } from '../../lib/module.js'
import type { ReferenceCache } from '../../lib/reference-cache.js'
import { createTokenIssuer } from '../../lib/tokens.js'
import type { Config } from '../../config.js'
import { createAuthRepo } from './repo.js'
import routes from './routes.js'
import { createAuthService } from './service.js'

export interface AuthPort {
  /** drops an account's kept principal and profile on this instance (the others hear the users table's trigger) */
  accountChanged: (id: number) => void
}

/**
 * Sign-in, tokens and the principal of every request. Each instance keeps principals and profiles
 * in memory, kept fresh by the users table's trigger (principal_changed) and, for the profile's
 * organization name, by the reference changes.
 */
export function createAuthModule (deps: {
  database: Database, config: Config, jwtSecret: string, clock: Clock, mailer: Mailer
  referenceChanges: Notifier, referenceCache: ReferenceCache, log: FastifyBaseLogger
}): ServiceModule<AuthPort> {
  const { database, config, clock } = deps
  const repo = createAuthRepo(database.db)
  const principalChanges = createNotifier(database, 'principal_changed')
  const principals = createInvalidatedCache({ load: repo.findPrincipal, maxEntries: 20_000, isLive: () => principalChanges.listening })
  // the profile names the organization: a rename of one drops them all
  const profiles = createInvalidatedCache({ load: repo.findProfile, maxEntries: 20_000, isLive: () => principalChanges.listening && deps.referenceChanges.listening })
  const accountChanged = (id: number) => { principals.forget(id); profiles.forget(id) }
  principalChanges.subscribe((id) => { accountChanged(Number(id)) })
  principalChanges.onState(() => { principals.clear(); profiles.clear() })
  deps.referenceCache.onDrop((topic) => { if (topic === 'organizations') profiles.clear() })
  const service = createAuthService({
    findPrincipal: principals.get,
    peekPrincipal: principals.peek,
    findProfile: profiles.get,
    principalChanged: accountChanged,
    repo,
    transaction: transactional(database.db, createAuthRepo),
    tokens: createTokenIssuer({ secret: deps.jwtSecret, ttlSeconds: config.accessTokenTtlSeconds, clock }),
    mailer: deps.mailer,
    clock,
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    log: deps.log,
  })
  return {
    port: { accountChanged },
    running: [principalChanges],
    async register (app) {
      await app.register(authPlugin, { authMode: config.authMode, serviceToken: config.serviceToken, resolvePrincipal: service.resolvePrincipal, knownPrincipal: service.knownPrincipal })
      for (const [prefix, variant] of [['/api/auth', ''], ['/api/shared/auth', 'Shared']] as const) {
        await app.register(routes, { prefix, variant, service })
      }
    },
  }
}
