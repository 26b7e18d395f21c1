import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { adminQuery, databaseUrlNamed, dropDatabase } from '../../src/db/admin.js'
import { createDb, type Database } from '../../src/db/client.js'
import { costOfDatabase } from './costs.js'

/**
 * A fresh, migrated database for one test file, made from the template that scripts/run-tests.ts
 * prepared once per run: a PGlite data-dir image, or a PostgreSQL template database.
 */
export async function createTestDatabase (): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL
  if (url) return createPostgresTestDatabase(url)
  return createEmbeddedTestDatabase()
}

/** an embedded database from the run's template, whichever server the run is on */
export async function createEmbeddedTestDatabase (options: { turnWaitMs?: number } = {}): Promise<Database> {
  const template = process.env.TEST_PGLITE_TEMPLATE
  if (!template) throw new Error('run the tests with `npm test` (it prepares the database template)')
  return costOfDatabase(() => createDb({ loadDataDir: templateImage(template), ...options }))
}

let templateBytes: Buffer | undefined

/**
 * The template's bytes, read once per process and handed to PGlite as they are: a Blob's own
 * arrayBuffer() reads its 44 MB back in small chunks (0.4 s of CPU for each database made).
 */
function templateImage (path: string): Blob {
  const bytes = templateBytes ??= readFileSync(path)
  return { type: '', size: bytes.byteLength, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) } as unknown as Blob
}

/** a fresh migrated PostgreSQL database of the test server, cloned from the run's template */
export async function createPostgresTestDatabaseUrl (url: string): Promise<{ url: string, drop: () => Promise<void> }> {
  const template = process.env.TEST_PG_TEMPLATE
  if (!template) throw new Error('run the tests with `npm test` (it prepares the database template)')
  // random, not the process id: a run killed before its drops leaves databases whose names a later run's ids would meet
  const name = `${template.replace(/_tpl$/, '')}_t${randomBytes(6).toString('hex')}`
  await adminQuery(url, `create database "${name}" template "${template}"`)
  return { url: databaseUrlNamed(url, name), drop: () => dropDatabase(url, name) }
}

async function createPostgresTestDatabase (url: string): Promise<Database> {
  const { fresh, database } = await costOfDatabase(async () => {
    const fresh = await createPostgresTestDatabaseUrl(url)
    return { fresh, database: await createDb({ databaseUrl: fresh.url, poolSize: 4 }) }
  })
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
