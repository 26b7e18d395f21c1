import { and, count, eq, gt, inArray, isNull, lt, min, sql } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { authTokens, loginFailures, organizations, serviceSettings, users, type AuthTokenPurpose } from '../../db/schema/index.js'

export type UserRow = typeof users.$inferSelect

export function createAuthRepo (db: AppDb) {
  return {
    findUserByEmail: async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0],
    /** the few columns a token check needs, on every authenticated request */
    findPrincipal: async (id: number) => (await db.select({
      id: users.id, email: users.email, role: users.role, user_type: users.user_type, organization_id: users.organization_id,
      is_active: users.is_active, token_version: users.token_version,
    }).from(users).where(eq(users.id, id)))[0],
    findUserById: async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0],
    countUsers: async () => (await db.select({ n: count() }).from(users))[0]!.n,

    findProfile: async (id: number) => (await db.select({ user: users, organization_name: organizations.name })
      .from(users).leftJoin(organizations, eq(organizations.id, users.organization_id)).where(eq(users.id, id)))[0],

    /** sets the password and revokes every earlier token by bumping the token version */
    setPassword: async (id: number, passwordHash: string, options: { activate?: boolean, mustChange?: boolean } = {}) =>
      (await db.update(users).set({
        password_hash: passwordHash,
        must_change_password: options.mustChange ?? false,
        token_version: sql`${users.token_version} + 1`,
        updated_at: sql`now()`,
        ...(options.activate ? { is_active: true } : {}),
      }).where(eq(users.id, id)).returning())[0],

    updateProfile: async (id: number, fields: { phone?: string | null, position?: string | null }) =>
      db.update(users).set({ ...fields, updated_at: sql`now()` }).where(eq(users.id, id)),

    insertUser: async (values: typeof users.$inferInsert) => (await db.insert(users).values(values).returning())[0]!,

    /** a new token of this purpose replaces the user's earlier unused ones */
    replaceToken: async (userId: number, purpose: AuthTokenPurpose, tokenHash: string, expiresAt: Date) => {
      await db.delete(authTokens).where(and(eq(authTokens.user_id, userId), eq(authTokens.purpose, purpose), isNull(authTokens.used_at)))
      await db.insert(authTokens).values({ user_id: userId, purpose, token_hash: tokenHash, expires_at: expiresAt })
    },

    findToken: async (tokenHash: string, purpose: AuthTokenPurpose) => (await db.select({ token: authTokens, user: users })
      .from(authTokens).innerJoin(users, eq(users.id, authTokens.user_id))
      .where(and(eq(authTokens.token_hash, tokenHash), eq(authTokens.purpose, purpose))))[0],

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

/** Values generated once and shared by every instance (the JWT key when JWT_SECRET is not set). */
export function createSettingsRepo (db: AppDb) {
  return {
    async getOrCreate (key: string, make: () => string): Promise<string> {
      await db.insert(serviceSettings).values({ key, value: make() }).onConflictDoNothing()
      return (await db.select().from(serviceSettings).where(eq(serviceSettings.key, key)))[0]!.value
    },
  }
}
