import { spawn } from 'node:child_process'

export interface RunOptions {
  /** the program is killed after this long (SIGKILL) and the result says `timedOut` */
  timeoutMs?: number
  /** standard output kept at most; past it the program is killed and the result says `overflowed` */
  maxOutBytes?: number
  /** keep standard output (otherwise only its byte count) */
  keepOut?: boolean
}

export interface RunResult {
  code: number | null
  /** standard output, when kept */
  out: Buffer
  outBytes: number
  /** the start of standard error (8,000 characters at most) */
  err: string
  timedOut: boolean
  overflowed: boolean
}

const ERR_KEPT = 8000

/**
 * Runs a program of the outside to its end, bounded: no shell, standard input closed, its output
 * kept up to a size, and killed when it runs past its time (a decoder fed a hostile file, or one
 * that hangs, must not hold a request or a background sweep forever).
 */
export function runProgram (program: string, args: string[], { timeoutMs, maxOutBytes = Infinity, keepOut = false }: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const out = keepOut ? growingBuffer(maxOutBytes) : undefined
    let outBytes = 0
    let err = ''
    let timedOut = false
    let overflowed = false
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length
      if (outBytes > maxOutBytes) {
        overflowed = true
        child.kill('SIGKILL')
      } else out?.append(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => { if (err.length < ERR_KEPT) err += chunk.toString() })
    child.on('error', (e) => { clearTimeout(timer); reject(e) })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, out: out?.bytes() ?? Buffer.alloc(0), outBytes, err, timedOut, overflowed })
    })
  })
}

/**
 * The output gathered in one buffer that doubles as it fills, up to the most kept: a decoder's
 * minutes of sound cost their size once or twice, not once in chunks and again joined
 */
function growingBuffer (most: number) {
  let buffer = Buffer.allocUnsafe(Math.min(most, 1 << 16))
  let length = 0
  return {
    append (chunk: Buffer) {
      if (length + chunk.length > buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(most, Math.max(length + chunk.length, buffer.length * 2)))
        buffer.copy(grown, 0, 0, length)
        buffer = grown
      }
      length += chunk.copy(buffer, length)
    },
    bytes: () => buffer.subarray(0, length),
  }
}
