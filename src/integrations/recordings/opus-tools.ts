import { spawn } from 'node:child_process'
import { writeChecked } from './checked-output.js'
import type { AudioEncoder, CompressedRecording } from './index.js'
import { readWavHeader } from './wav.js'

/** a decoded recording may differ from its source by less than this (one Opus frame at most) */
const LENGTH_TOLERANCE_SECONDS = 0.06

/** runs a program to its end: its standard output's byte count (not kept) and its error text */
function run (program: string, args: string[]): Promise<{ code: number | null, outBytes: number, err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let outBytes = 0
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => { outBytes += chunk.length })
    child.stderr.on('data', (chunk: Buffer) => { if (err.length < 4000) err += chunk.toString() })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, outBytes, err: err.trim() }))
  })
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
export function createOpusToolsEncoder ({ encoder = 'opusenc', decoder = 'opusdec', bitrateKbps = 12 }: { encoder?: string, decoder?: string, bitrateKbps?: number } = {}): AudioEncoder {
  return {
    async probe () {
      try {
        const [enc, dec] = await Promise.all([run(encoder, ['--version']), run(decoder, ['--version'])])
        return enc.code === 0 && dec.code === 0 ? `${encoder} (opus-tools)` : undefined
      } catch { return undefined }
    },

    async compress (from: string, to: string): Promise<CompressedRecording> {
      const source = await readWavHeader(from)
      if (!source?.closed) throw new Error(`${from}: not a finished PCM WAV`)
      return writeChecked({
        from, to, sourceSeconds: source.seconds, tolerance: LENGTH_TOLERANCE_SECONDS,
        async write (partial) {
          const encoded = await run(encoder, ['--quiet', '--hard-cbr', '--bitrate', String(bitrateKbps), '--framesize', '60', '--comp', '0', from, partial])
          if (encoded.code !== 0) throw new Error(`${encoder} failed (${encoded.code}): ${encoded.err}`)
        },
        // decoded again, at the source's rate: the bytes it gives are its length
        async decodedSeconds (partial) {
          const decoded = await run(decoder, ['--quiet', '--rate', String(source.sampleRate), '--force-wav', partial, '-'])
          if (decoded.code !== 0) throw new Error(`${decoder} could not read what ${encoder} wrote (${decoded.code}): ${decoded.err}`)
          return (decoded.outBytes - 44) / (source.sampleRate * source.channels * 2)
        },
      })
    },
  }
}
