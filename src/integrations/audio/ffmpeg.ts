import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UndecodableError, type AudioDecoder, type DecodedFile } from './index.js'

interface Run { code: number | null, out: Buffer, err: string }

function run (program: string, args: string[], maxOutBytes: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let outBytes = 0
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length
      if (outBytes <= maxOutBytes) out.push(chunk)
      else child.kill('SIGKILL')
    })
    child.stderr.on('data', (chunk: Buffer) => { if (err.length < 8000) err += chunk.toString() })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out), err }))
  })
}

const CHANNEL_LAYOUTS: Record<string, number> = { mono: 1, stereo: 2, 2.1: 3, '3.0': 3, quad: 4, '4.0': 4, '5.0': 5, 5.1: 6, 6.1: 7, 7.1: 8 }

/** the first audio stream as ffmpeg's log names it: `Stream #0:0: Audio: mp3, 44100 Hz, stereo, fltp, 48 kb/s` */
export function sourceOf (log: string): DecodedFile['source'] | undefined {
  const line = /Stream #\d+:\d+[^:]*: Audio: ([^\s,(]+)[^,]*, (\d+) Hz, ([^,]+)/.exec(log)
  if (!line) return undefined
  const layout = line[3]!.trim().replace(/\(.*\)$/, '')
  const counted = /^(\d+) channels/.exec(layout)
  return { codec: line[1]!, sampleRate: Number(line[2]), channels: counted ? Number(counted[1]) : CHANNEL_LAYOUTS[layout] }
}

/** ffmpeg's last error line, which says why a file was not read (`Invalid data found when processing input`) */
const reasonOf = (log: string): string => log.split('\n').map((l) => l.trim()).filter((l) => l && !/^(Input|Stream|Duration|Metadata|\s)/.test(l)).at(-1) ?? 'not read'

/**
 * FFmpeg (Debian: `apt-get install ffmpeg`), the decoder of every format a phone, a recorder or a
 * studio gives. The file goes through a temporary file, not a pipe: an M4A whose index (`moov`)
 * comes last cannot be read from a pipe. The sound comes back mono at its own rate, as 32-bit
 * float; the service resamples, trims and levels it itself.
 */
export function createFfmpegDecoder ({ program = 'ffmpeg' }: { program?: string } = {}): AudioDecoder {
  let known: Promise<string | undefined> | undefined
  return {
    probe () {
      known ??= run(program, ['-hide_banner', '-version'], 1 << 16)
        .then((r) => r.code === 0 ? /ffmpeg version (\S+)/.exec(r.out.toString())?.[0] ?? 'ffmpeg' : undefined)
        .catch(() => undefined)
      return known
    },

    async decode (file, maxSeconds) {
      const dir = await mkdtemp(join(tmpdir(), 'appeals-audio-'))
      try {
        const input = join(dir, 'source')
        await writeFile(input, file)
        // 8 bytes a second per Hz of the highest rate ffmpeg resamples to (384 kHz) bounds the output
        const result = await run(program, ['-nostdin', '-hide_banner', '-loglevel', 'info', '-i', input, '-map', '0:a:0', '-vn', '-t', String(maxSeconds), '-ac', '1', '-c:a', 'pcm_f32le', '-f', 'wav', 'pipe:1'],
          Math.ceil(maxSeconds + 1) * 384_000 * 4 + 4096)
        const log = result.err.replaceAll(`${input}: `, '')
        const source = sourceOf(log)
        if (result.code !== 0 || !source) throw new UndecodableError(source ? reasonOf(log) : `no audio stream: ${reasonOf(log)}`)
        return { wav: result.out, source }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  }
}
