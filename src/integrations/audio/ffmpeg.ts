import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runProgram } from '../../lib/child-process.js'
import { AUDIO_DEMUXERS, UndecodableError, type AudioDecoder, type DecodedFile } from './decoder.js'

const CHANNEL_LAYOUTS: Record<string, number> = { mono: 1, stereo: 2, 2.1: 3, '3.0': 3, quad: 4, '4.0': 4, '5.0': 5, 5.1: 6, 6.1: 7, 7.1: 8 }

/** the first audio stream as ffmpeg's log names it: `Stream #0:0: Audio: mp3, 44100 Hz, stereo, fltp, 48 kb/s` */
export function sourceOf (log: string): DecodedFile['source'] | undefined {
  // at a line's start: a tag's text (a title) printed in the log before the streams cannot pose as one
  const line = /^\s*Stream #\d+:\d+[^:\n]*: Audio: ([^\s,(]+)[^,\n]*, (\d+) Hz, ([^,\n]+)/m.exec(log)
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
 * comes last cannot be read from a pipe. The upload is hostile until shown otherwise, so FFmpeg is
 * told the demuxer of the format the service sniffed (left to itself, it finds an HLS playlist or
 * a DASH manifest behind an ID3 tag and reads the files they name), may open no protocol but that
 * one file, decodes one thread, at most `maxSeconds`, straight to the rate asked for (a bomb at
 * 384 kHz costs what a prompt at 16 kHz does), and is killed past `timeoutMs`. The sound comes
 * back mono as 16-bit PCM (what is kept); the service trims and levels it itself.
 */
export function createFfmpegDecoder ({ program = 'ffmpeg', timeoutMs = 15_000 }: { program?: string, timeoutMs?: number } = {}): AudioDecoder {
  let known: Promise<string | undefined> | undefined
  return {
    probe () {
      known ??= runProgram(program, ['-hide_banner', '-version'], { keepOut: true, maxOutBytes: 1 << 16, timeoutMs: 10_000 })
        .then((r) => r.code === 0 ? /ffmpeg version (\S+)/.exec(r.out.toString())?.[0] ?? 'ffmpeg' : undefined)
        .catch(() => undefined)
      return known
    },

    async decode (file, { format, maxSeconds, sampleRate }) {
      const demuxer = AUDIO_DEMUXERS[format]
      const dir = await mkdtemp(join(tmpdir(), 'appeals-audio-'))
      try {
        const input = join(dir, 'source')
        await writeFile(input, file, { mode: 0o600 })
        const result = await runProgram(program, [
          '-nostdin', '-hide_banner', '-loglevel', 'info', '-threads', '1',
          // (an MP4's data references to other files are off by default in FFmpeg: said here all the same)
          '-protocol_whitelist', 'file', ...(demuxer === 'mov' ? ['-enable_drefs', '0'] : []), '-f', demuxer, '-i', `file:${input}`,
          '-map', '0:a:0', '-vn', '-sn', '-dn', '-t', String(maxSeconds),
          '-ac', '1', '-ar', String(sampleRate), '-c:a', 'pcm_s16le', '-f', 'wav', 'pipe:1',
        ], { keepOut: true, timeoutMs, maxOutBytes: Math.ceil(maxSeconds + 1) * sampleRate * 2 + 4096 })
        if (result.timedOut) throw new UndecodableError(`decoding took longer than ${Math.round(timeoutMs / 1000)} s`)
        const log = result.err.replaceAll(`file:${input}: `, '').replaceAll(`${input}: `, '')
        const source = sourceOf(log)
        if (result.code !== 0 || result.overflowed || !source) throw new UndecodableError(source ? reasonOf(log) : `no audio stream: ${reasonOf(log)}`)
        return { wav: result.out, source }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  }
}
