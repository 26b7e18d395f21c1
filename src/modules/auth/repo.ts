import { and, count, eq, gt, inArray, isNull, lt, min } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { authTokens, loginFailures, serviceSettings, type AuthTokenPurpose } from '../../db/schema/index.js'
import { accountQueries } from '../employees/queries.js'

export type { UserRow } from '../employees/queries.js'

export function createAuthRepo (db: AppDb) {
  const accounts = accountQueries(db)
  return {
    ...accounts,

    /** a new token of this purpose replaces the user's earlier unused ones */
    replaceToken: async (userId: number, purpose: AuthTokenPurpose, tokenHash: string, expiresAt: Date) => {
      await db.delete(authTokens).where(and(eq(authTokens.user_id, userId), eq(authTokens.purpose, purpose), isNull(authTokens.used_at)))
      await db.insert(authTokens).values({ user_id: userId, purpose, token_hash: tokenHash, expires_at: expiresAt })
    },

    async findToken (tokenHash: string, purpose: AuthTokenPurpose) {
      const token = (await db.select().from(authTokens).where(and(eq(authTokens.token_hash, tokenHash), eq(authTokens.purpose, purpose))))[0]
      const user = token && await accounts.findUserById(token.user_id)
      return user && { token, user }
    },

    /** marks the token used unless it already is: of two concurrent uses only one succeeds */
    consumeToken: async (id: number, at: Date) =>
      (await db.update(authTokens).set({ used_at: at }).where(and(eq(authTokens.id, id), isNull(authTokens.used_at)))
        .returning({ id: authTokens.id }))[0] !== undefined,

    failuresSince: async (keys: string[], since: Date) => db.select({ key: loginFailures.key, failures: count(), oldest: min(loginFailures.failed_at) })
      .from(loginFailures).where(and(inArray(loginFailures.key, keys), gt(loginFailures.failed_at, since))).groupBy(loginFailures.key),

    recordFailure: async (keys: string[], at: Date, pruneBefore: Date) => {
      await db.insert(loginFailures).values(keys.map((key) => ({ key, failed_at: at })))
      await db.delete(loginFailures).where(and(inArray(loginFailures.key, keys), lt(loginFailures.failed_at, pruneBefore)))
    },

    clearFailures: async (key: string) => { await db.delete(loginFailures).where(eq(loginFailures.key, key)) },
  }
}

export type AuthRepo = ReturnType<typeof createAuthRepo>
/** what every authenticated request reads of its user */
export type PrincipalRow = NonNullable<Awaited<ReturnType<AuthRepo['findPrincipal']>>>

/** Values generated once and shared by every instance (the JWT key when JWT_SECRET is not set). */
export function createSettingsRepo (db: AppDb) {
  return {
    async getOrCreate (key: string, make: () => string): Promise<string> {
      await db.insert(serviceSettings).values({ key, value: make() }).onConflictDoNothing()
      return (await db.select().from(serviceSettings).where(eq(serviceSettings.key, key)))[0]!.value
    },
  }
}
