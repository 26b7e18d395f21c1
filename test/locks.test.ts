// The advisory locks that make one instance the one doing a thing: each its own key, or two jobs
// would wait on each other (a leader holding its lock forever blocks every other taker of the key).
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { PROJECT_ROOT } from './helpers/runnable.js'

const root = join(PROJECT_ROOT, 'src')
const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [])

describe('advisory locks', () => {
  it('every lock constant of the service has a key of its own', () => {
    const keys = new Map<string, string[]>()
    for (const file of sources(root)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/const (\w+_LOCK) = ([\d_]+)/g)) {
        const key = m[2]!.replaceAll('_', '')
        keys.set(key, [...keys.get(key) ?? [], `${m[1]} (${file.slice(root.length + 1)})`])
      }
    }
    assert.ok(keys.size >= 5, `the locks found: ${[...keys.values()].flat().join(', ')}`)
    assert.deepEqual([...keys.values()].filter((names) => names.length > 1), [])
  })
})
