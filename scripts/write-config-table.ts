// `npm run docs:config`: writes the configuration table (docs/configuration.md) from the environment
// schema (src/config/env-schema.ts); test/config.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs'
import { configurationTable } from '../src/config/env-schema.js'

export const BEGIN = '<!-- configuration table: written by `npm run docs:config` from src/config/env-schema.ts -->'
export const END = '<!-- end of the configuration table -->'
/** the page the table is on */
export const CONFIGURATION_PAGE = 'docs/configuration.md'

export function withTable (page: string): string {
  const start = page.indexOf(BEGIN)
  const end = page.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${CONFIGURATION_PAGE} has no configuration table markers`)
  return `${page.slice(0, start + BEGIN.length)}\n${configurationTable()}\n${page.slice(end)}`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(CONFIGURATION_PAGE, withTable(readFileSync(CONFIGURATION_PAGE, 'utf8')))
  process.stdout.write(`${CONFIGURATION_PAGE}: the configuration table written\n`)
}
