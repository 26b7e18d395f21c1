// `npm run docs:config`: writes the configuration table of the README from the environment schema
// (src/config/env-schema.ts); test/config.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs'
import { configurationTable } from '../src/config/env-schema.js'

export const BEGIN = '<!-- configuration table: written by `npm run docs:config` from src/config/env-schema.ts -->'
export const END = '<!-- end of the configuration table -->'

export function withTable (readme: string): string {
  const start = readme.indexOf(BEGIN)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error('README.md has no configuration table markers')
  return `${readme.slice(0, start + BEGIN.length)}\n${configurationTable()}\n${readme.slice(end)}`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync('README.md', withTable(readFileSync('README.md', 'utf8')))
  process.stdout.write('README.md configuration table written\n')
}
