import { makeWav } from '../../src/lib/audio/index.js'

// WAV files that are 16-bit mono PCM but not in the canonical 44-byte form, as recorders and editors
// write them: Asterisk's format_wav refuses or misreads each as it is.

/** WAVE_FORMAT_EXTENSIBLE (tag 0xFFFE, a 40-byte format chunk) with the PCM subtype */
export function extensibleWav (sampleRate: number, samples: Int16Array): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const fmt = Buffer.alloc(40)
  fmt.writeUInt16LE(0xfffe, 0)
  fmt.writeUInt16LE(1, 2)
  fmt.writeUInt32LE(sampleRate, 4)
  fmt.writeUInt32LE(sampleRate * 2, 8)
  fmt.writeUInt16LE(2, 12)
  fmt.writeUInt16LE(16, 14)
  fmt.writeUInt16LE(22, 16) // cbSize
  fmt.writeUInt16LE(16, 18) // valid bits
  fmt.writeUInt32LE(4, 20) // channel mask: front centre
  Buffer.from('0100000000001000800000aa00389b71', 'hex').copy(fmt, 24) // KSDATAFORMAT_SUBTYPE_PCM
  return riff([chunk('fmt ', fmt), chunk('data', data)])
}

/** a recorder that did not know the length: the data chunk's size 0xFFFFFFFF */
export function unsizedWav (sampleRate: number, samples: Int16Array): Buffer {
  const file = makeWav(sampleRate, samples)
  file.writeUInt32LE(0xffffffff, 40)
  file.writeUInt32LE(0xffffffff, 4)
  return file
}

/** an odd-sized chunk (with its pad byte) before the data, as a LIST/INFO an editor adds */
export function oddChunkWav (sampleRate: number, samples: Int16Array): Buffer {
  const canonical = makeWav(sampleRate, samples)
  return riff([canonical.subarray(12, 36), chunk('LIST', Buffer.from('INFOabc')), canonical.subarray(36)])
}

function chunk (id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.write(id, 0, 'latin1')
  head.writeUInt32LE(body.length, 4)
  return Buffer.concat([head, body, body.length % 2 === 1 ? Buffer.from([0]) : Buffer.alloc(0)])
}

function riff (chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks)
  const head = Buffer.alloc(12)
  head.write('RIFF', 0, 'latin1')
  head.writeUInt32LE(4 + body.length, 4)
  head.write('WAVE', 8, 'latin1')
  return Buffer.concat([head, body])
}
