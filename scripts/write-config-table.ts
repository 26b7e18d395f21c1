// `npm run docs:config`: writes the configuration table (docs/configuration.md) from the environment
// schema (src/config/env-schema.ts); test/config.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs'
import { configurationTable } from '../src/config/env-schema.js'
import { withSection } from './generated-section.js'

/** the page the table is on */
export const CONFIGURATION_PAGE = 'docs/configuration.md'
const SECTION = {
  begin: '<!-- configuration table: written by `npm run docs:config` from src/config/env-schema.ts -->',
  end: '<!-- end of the configuration table -->',
  file: CONFIGURATION_PAGE,
}

export const withTable = (page: string): string => withSection(page, SECTION, configurationTable())

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(CONFIGURATION_PAGE, withTable(readFileSync(CONFIGURATION_PAGE, 'utf8')))
  process.stdout.write(`${CONFIGURATION_PAGE}: the configuration table written\n`)
}
