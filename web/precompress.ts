import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const TEXT = /\.(js|css|html|svg|json)$/
/** below this a compressed copy saves less than its headers cost */
const SMALLEST = 1024

function filesUnder (folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, at the highest
 * levels: made once here, served as they are by the service (`preCompressed`) instead of being
 * compressed again on every request.
 */
export function precompress (): Plugin {
  let outDir = 'dist'
  return {
    name: 'precompress',
    apply: 'build',
    configResolved (config) { outDir = config.build.outDir },
    closeBundle () {
      for (const path of filesUnder(outDir)) {
        if (!TEXT.test(path)) continue
        const bytes = readFileSync(path)
        if (bytes.length < SMALLEST) continue
        writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }))
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }))
      }
    },
  }
}
