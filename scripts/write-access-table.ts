// `npm run docs:access`: writes the table of who may call each route in each AUTH_MODE
// (docs/access.md) from the routes' own marks; test/access.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { accessTable } from '../src/lib/access-table.js'
import { withSection } from './generated-section.js'

/** the page the table is on */
export const ACCESS_PAGE = 'docs/access.md'
const SECTION = {
  begin: '<!-- access table: written by `npm run docs:access` from the routes\' marks -->',
  end: '<!-- end of the access table -->',
  file: ACCESS_PAGE,
}

export const withAccessTable = (page: string, app: FastifyInstance): string => withSection(page, SECTION, accessTable(app.markedRoutes()))

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildApp } = await import('../src/app.js')
  const { loadConfig } = await import('../src/config.js')
  const { createDb } = await import('../src/db/client.js')
  const database = await createDb({})
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database, logger: false, jwtSecret: 'only-used-to-read-the-routes' })
  await app.ready()
  writeFileSync(ACCESS_PAGE, withAccessTable(readFileSync(ACCESS_PAGE, 'utf8'), app))
  await app.close()
  await database.close()
  process.stdout.write(`${ACCESS_PAGE}: the access table written\n`)
}
