import { sql } from 'drizzle-orm'
import { bigint, check, integer, pgTable, primaryKey, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core'

// The PBX configuration applies itself (issue 51). Triggers on every table the generated files are
// written from give the scope they belong to a new version (a sequence's next value); the apply
// re-renders the scopes whose version is not the one applied, and writes only their files.

/** an organization's id; these two scopes stand for what is not one organization's */
export const PBX_SCOPE_SHARED = 0
export const PBX_SCOPE_EVERY_ORGANIZATION = -1

export const pbxVersions = pgTable('pbx_versions', {
  /** an organization's id (no foreign key: a deleted organization's row says its files are to go), 0 the shared parts (the calendar), -1 every organization (regions, trunks, platform tenants) */
  scope: integer('scope').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
  /** the version the files on disk were rendered from (or refused at); null: never */
  applied: bigint('applied', { mode: 'number' }),
  /** the prefix its files were written under (their folder): what to remove once the organization is gone or renumbered */
  prefix: varchar('prefix', { length: 3 }),
  /** why the applied version was refused: its files on disk are the last good ones */
  problem: text('problem'),
  problem_since: timestamp('problem_since', { withTimezone: true }),
  /**
   * An organization's: the digest of its files as written at `applied` (and of how they were
   * rendered): a full generation renders again only what moved or differs. Every organization's
   * (-1): how they were all last rendered (the service's version and settings); another renders them all.
   */
  files_digest: varchar('files_digest', { length: 64 }),
})

/** one row: what was written but not yet reloaded, and how the last apply went */
export const pbxApplyState = pgTable('pbx_apply_state', {
  id: smallint('id').primaryKey().default(1),
  /** the reloads the written files still need (`pjsip`, `dialplan`, `queues`): kept across restarts until Asterisk answers */
  pending_reloads: text('pending_reloads').array().notNull().default(sql`'{}'::text[]`),
  /** counts the writes: a reload clears what it covered only when no write came after it began */
  write_seq: bigint('write_seq', { mode: 'number' }).notNull().default(0),
  applied_at: timestamp('applied_at', { withTimezone: true }),
  /** the last failure (a write, a reload, what Asterisk refused); null once an apply succeeds */
  error: text('error'),
  error_at: timestamp('error_at', { withTimezone: true }),
}, (t) => [check('pbx_apply_state_one_row', sql`${t.id} = 1`)])

/**
 * What Asterisk refused in the files its last reload of a module read (PBX_ASTERISK_LOG): a reload of
 * a module reads all of that module's files, so its rows replace the module's earlier ones.
 */
export const pbxAsteriskRefusals = pgTable('pbx_asterisk_refusals', {
  /** the reload: `pjsip`, `dialplan`, `queues` */
  module: varchar('module', { length: 16 }).notNull(),
  /** an organization's id, or 0 for the shared part */
  scope: integer('scope').notNull(),
  /** Asterisk's words (its log lines' messages) */
  message: text('message').notNull(),
  logged_at: timestamp('logged_at', { withTimezone: true }).notNull(),
}, (t) => [primaryKey({ columns: [t.module, t.scope] })])
