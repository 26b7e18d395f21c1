import { execFileSync } from 'node:child_process'

/** whether Xiph's opus-tools (opusenc, opusdec) run here: the recordings' encoder */
export const haveOpusTools = (() => { try { execFileSync('opusenc', ['--version'], { stdio: 'ignore' }); return true } catch { return false } })()

/** `seconds` of a 440 Hz tone at 8 kHz, 16-bit mono */
export const tone = (seconds: number) => Int16Array.from({ length: 8000 * seconds }, (_, i) => Math.round(6000 * Math.sin(2 * Math.PI * 440 * i / 8000)))

/**
 * The samples as Asterisk's format_wav leaves a file: 8 kHz 16-bit mono in a 44-byte header whose
 * sizes stay 0 until the file is closed, then a pad byte after odd data (`extraByte` makes it odd).
 */
export function asteriskWav (samples: Int16Array, { closed = true, extraByte = false }: { closed?: boolean, extraByte?: boolean } = {}): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const body = extraByte ? Buffer.concat([data, Buffer.from([7])]) : data
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(closed ? 36 + body.length : 0, 4)
  header.write('WAVEfmt ', 8, 'latin1')
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(8000, 24)
  header.writeUInt32LE(16000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36, 'latin1')
  header.writeUInt32LE(closed ? body.length : 0, 40)
  return Buffer.concat([header, body, ...(closed && body.length % 2 === 1 ? [Buffer.from([0])] : [])])
}
