// A file of the project as a new Node process runs it: compiled once for the run (npm test runs the
// compiled copy, scripts/build.mjs) or, when this file runs from its TypeScript, through tsx.
import { join, resolve } from 'node:path'

/** the compiled copy this file runs from (dist/<fingerprint>), or the project */
export const RUN_ROOT = resolve(import.meta.dirname, '../..')
const COMPILED = import.meta.filename.endsWith('.js')

/** the file node runs for a source file of the project (`test/x.test.ts`: its compiled copy, or itself) */
export const runnableFile = (source: string) => COMPILED ? join(RUN_ROOT, source.replace(/\.ts$/, '.js')) : resolve(RUN_ROOT, source)

/** the project's own folder (its sources), wherever the tests run from */
export const PROJECT_ROOT = COMPILED ? resolve(RUN_ROOT, '../..') : RUN_ROOT

/** node's flags for the project's code: its source maps, or tsx's loader */
export const NODE_FLAGS = COMPILED ? ['--enable-source-maps'] : ['--import', 'tsx']

/** node's arguments that run a source file of the project (`src/main.ts`), before the file's own */
export function nodeArgs (source: string): string[] {
  return [...NODE_FLAGS, runnableFile(source)]
}

/** a module of the project by its source path, as an import() in another process names it */
export function moduleUrl (source: string): string {
  return `file://${runnableFile(source)}`
}
