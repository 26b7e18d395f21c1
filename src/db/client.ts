import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { lockDataDir } from './data-dir-lock.js'
import * as schema from './schema/index.js'

/** One handle type for both drivers (and their transactions): repositories take this. */
export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>

/** Runs `work` in one transaction with a repository bound to it. */
export type Transactional<R> = <T>(work: (repo: R) => Promise<T>) => Promise<T>

export function transactional<R> (db: AppDb, makeRepo: (db: AppDb) => R): Transactional<R> {
  return (work) => db.transaction((tx) => work(makeRepo(tx as unknown as AppDb)))
}

export interface Database {
  db: AppDb
  kind: 'pglite' | 'postgres'
  /** a round trip to the database */
  ping: () => Promise<void>
  close: () => Promise<void>
  /** the raw driver, for migrations and LISTEN/NOTIFY */
  driver: { kind: 'pglite', client: PGlite } | { kind: 'postgres', pool: pg.Pool }
}

export interface DbOptions {
  databaseUrl?: string
  /** directory of the embedded database; undefined keeps it in memory */
  dataDir?: string
  /** an initial data directory image (tests load a migrated template) */
  loadDataDir?: Blob
  poolSize?: number
}

export const pgliteExtensions = { pg_trgm }

/** how long a connection to the PostgreSQL server may take to open */
const CONNECT_TIMEOUT_MS = 5000
/** the longest statement the service runs (its heaviest are exports and generations: far below this) */
const STATEMENT_TIMEOUT_MS = 30_000

export async function createDb (options: DbOptions): Promise<Database> {
  if (options.databaseUrl) return createPostgres(options.databaseUrl, options.poolSize ?? 10)
  const dataDir = options.dataDir === undefined ? undefined : join(options.dataDir, 'pgdata')
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const unlock = options.dataDir === undefined ? () => {} : lockDataDir(options.dataDir)
  const client = await PGlite.create({ dataDir, loadDataDir: options.loadDataDir, extensions: pgliteExtensions })
    .catch((err: unknown) => { unlock(); throw err })
  const db = drizzlePglite({ client, schema }) as unknown as AppDb
  return {
    db,
    kind: 'pglite',
    driver: { kind: 'pglite', client },
    ping: async () => { await client.query('select 1') },
    close: async () => {
      if (!client.closed) await client.close()
      unlock()
    },
  }
}

function createPostgres (connectionString: string, max: number): Database {
  // no query waits forever: a server that stops answering is given up on and the request answers 503
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5000,
    keepAlive: true,
  })
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = drizzlePg({ client: pool, schema }) as unknown as AppDb
  return {
    db,
    kind: 'postgres',
    driver: { kind: 'postgres', pool },
    ping: async () => { await db.execute(sql`select 1`) },
    close: async () => { await pool.end() },
  }
}
