// The source's shape: no import circles (type imports included), no file importing its own
// folder's index (an index re-exports its folder to the others).
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { describe, it } from 'node:test'
import { PROJECT_ROOT } from './helpers/runnable.js'

const SRC = resolve(PROJECT_ROOT, 'src')

function sources (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [])
}

/** each file's relative imports and re-exports (type-only ones too), as files */
function importGraph (): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8')
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')))
    graph.set(file, targets)
  }
  return graph
}

/** the circles found by a depth-first walk, each once */
function circles (graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const walk = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(path.slice(path.indexOf(next)).map((f) => relative(SRC, f)))
      else if (!state.has(next)) walk(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) walk(file)
  return found
}

describe('the source\'s imports', () => {
  const graph = importGraph()

  it('form no circle, type imports included', () => {
    assert.deepEqual(circles(graph), [])
  })

  it('never reach a file\'s own folder\'s index', () => {
    const own = [...graph].flatMap(([file, targets]) => basename(file) !== 'index.ts' && targets.includes(join(dirname(file), 'index.ts')) ? [relative(SRC, file)] : [])
    assert.deepEqual(own, [])
  })

  it('an index only says what its folder offers: re-exports, no code of its own', () => {
    const codeIn = (file: string) => readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '').split('\n').map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('//') && !/^export (type )?(\*|\{[^}]*\}) from '[^']+'$/.test(l))
    const withCode = [...graph.keys()].filter((file) => basename(file) === 'index.ts' && codeIn(file).length > 0).map((file) => relative(SRC, file))
    assert.deepEqual(withCode, [])
  })

  it('a factory of a module (export function create...) stays within 250 lines: one concern each', () => {
    const MOST = 250
    const tooLong = [...graph.keys()].flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n')
      return lines.flatMap((line, at) => {
        const name = /^export (?:async )?function (create\w+)/.exec(line)?.[1]
        if (!name) return []
        const end = lines.findIndex((l, i) => i > at && l === '}')
        const length = end - at + 1
        return length > MOST ? [`${relative(SRC, file)}: ${name} is ${length} lines`] : []
      })
    })
    assert.deepEqual(tooLong, [])
  })
})
