import { runProgram } from '../../lib/child-process.js'
import { writeChecked } from './checked-output.js'
import type { AudioEncoder, CompressedRecording } from './types.js'
import { readWavHeader } from '../../lib/audio/index.js'

/** a decoded recording may differ from its source by less than this (one Opus frame at most) */
const LENGTH_TOLERANCE_SECONDS = 0.06

/** a program's whole run: `baseMs` (a minute), and a second for each second of sound (an hour encodes in 11 s of a core) */
const timeFor = (baseMs: number, seconds: number) => baseMs + Math.ceil(seconds) * 1000

async function run (program: string, args: string[], baseMs: number, seconds = 0): Promise<{ code: number | null, outBytes: number, err: string }> {
  const timeoutMs = timeFor(baseMs, seconds)
  const result = await runProgram(program, args, { timeoutMs })
  if (result.timedOut) throw new Error(`${program} ran past ${timeoutMs / 1000} s and was stopped`)
  return { code: result.code, outBytes: result.outBytes, err: result.err.trim() }
}

/**
 * Ogg/Opus through Xiph's own tools (opus-tools: `opusenc`, `opusdec`, on libopus), which a
 * deployment installs from its distribution (Debian: `apt-get install opus-tools`): the reference
 * encoder, maintained with libopus, and no native module to build with the service. Constant
 * 12 kbit/s in 60 ms frames keeps every call under 2 kB a second (1.6 kB with Ogg's overhead):
 * VBR, constrained or not, went to 17 kbit/s on steady tones. Complexity 0: at a constant rate the
 * bytes are the same as at 5 or 10, the decoded speech as close to the source (7.2, 7.4 and 7.0 dB
 * SNR on a Russian sentence), and an hour is encoded in 10.7 s of a core instead of 38.7 s.
 */
export function createOpusToolsEncoder ({ encoder = 'opusenc', decoder = 'opusdec', bitrateKbps = 12, baseTimeoutMs = 60_000 }: { encoder?: string, decoder?: string, bitrateKbps?: number, baseTimeoutMs?: number } = {}): AudioEncoder {
  return {
    async probe () {
      try {
        const [enc, dec] = await Promise.all([run(encoder, ['--version'], baseTimeoutMs), run(decoder, ['--version'], baseTimeoutMs)])
        return enc.code === 0 && dec.code === 0 ? `${encoder} (opus-tools)` : undefined
      } catch { return undefined }
    },

    async compress (from: string, to: string): Promise<CompressedRecording> {
      const source = await readWavHeader(from)
      if (!source?.closed) throw new Error(`${from}: not a finished PCM WAV`)
      return writeChecked({
        from, to, sourceSeconds: source.seconds, tolerance: LENGTH_TOLERANCE_SECONDS,
        async write (partial) {
          const encoded = await run(encoder, ['--quiet', '--hard-cbr', '--bitrate', String(bitrateKbps), '--framesize', '60', '--comp', '0', from, partial], baseTimeoutMs, source.seconds)
          if (encoded.code !== 0) throw new Error(`${encoder} failed (${encoded.code}): ${encoded.err}`)
        },
        // decoded again, at the source's rate: the bytes it gives are its length
        async decodedSeconds (partial) {
          const decoded = await run(decoder, ['--quiet', '--rate', String(source.sampleRate), '--force-wav', partial, '-'], baseTimeoutMs, source.seconds)
          if (decoded.code !== 0) throw new Error(`${decoder} could not read what ${encoder} wrote (${decoded.code}): ${decoded.err}`)
          return (decoded.outBytes - 44) / (source.sampleRate * source.channels * 2)
        },
      })
    },
  }
}
