import { readFileSync } from 'node:fs'
import pg from 'pg'
import { createDb, type Database } from '../../src/db/client.js'

/**
 * A fresh, migrated database for one test file, made from the template that scripts/run-tests.ts
 * prepared once per run: a PGlite data-dir image, or a PostgreSQL template database.
 */
export async function createTestDatabase (): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL
  if (url) return createPostgresTestDatabase(url)
  const template = process.env.TEST_PGLITE_TEMPLATE
  if (!template) throw new Error('run the tests with `npm test` (it prepares the database template)')
  return createDb({ loadDataDir: new Blob([readFileSync(template)]) })
}

let counter = 0

/** a fresh migrated PostgreSQL database of the test server, cloned from the run's template */
export async function createPostgresTestDatabaseUrl (url: string): Promise<{ url: string, drop: () => Promise<void> }> {
  const template = process.env.TEST_PG_TEMPLATE
  if (!template) throw new Error('run the tests with `npm test` (it prepares the database template)')
  const name = `${template.replace(/_tpl$/, '')}_t${process.pid}_${++counter}`
  await adminQuery(url, `create database "${name}" template "${template}"`)
  const target = new URL(url)
  target.pathname = `/${name}`
  return { url: target.toString(), drop: () => dropDatabase(url, name) }
}

async function createPostgresTestDatabase (url: string): Promise<Database> {
  const fresh = await createPostgresTestDatabaseUrl(url)
  const database = await createDb({ databaseUrl: fresh.url, poolSize: 4 })
  const close = database.close
  let closed = false
  database.close = async () => {
    if (closed) return
    closed = true
    await close()
    await fresh.drop()
  }
  return database
}

/**
 * `drop database ... with (force)` fails while an autovacuum worker (a backend our role may not
 * terminate) is busy in the new database: wait for it to finish and try again.
 */
async function dropDatabase (url: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `drop database if exists "${name}" with (force)`)
      return
    } catch (err) {
      if ((err as { code?: string }).code !== '42501' || attempt === 20) throw err
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}

export async function adminQuery (url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try { await client.query(text) } finally { await client.end() }
}
