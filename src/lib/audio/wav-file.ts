import { open } from 'node:fs/promises'

/** What a WAV file's header says, and whether its writer has closed it. */
export interface WavHeader {
  sampleRate: number
  channels: number
  bitsPerSample: number
  /** bytes of samples the header counts (0 while Asterisk still writes the file) */
  dataBytes: number
  /** the header's counts match the bytes on disk: Asterisk fills them in only when it closes the file */
  closed: boolean
  seconds: number
}

export const WAV_HEADER_BYTES = 44

/**
 * The header of a PCM WAV as Asterisk writes it (format_wav.c: 44 bytes, the sizes left 0 until the
 * file is closed, then a pad byte when the data is odd): a recording whose sizes match its length is
 * finished, one whose sizes are 0 is still being written. Undefined for anything else.
 */
export async function readWavHeader (path: string): Promise<WavHeader | undefined> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const header = Buffer.alloc(WAV_HEADER_BYTES)
    const { bytesRead } = await handle.read(header, 0, WAV_HEADER_BYTES, 0)
    if (bytesRead < WAV_HEADER_BYTES || header.toString('latin1', 0, 4) !== 'RIFF' || header.toString('latin1', 8, 16) !== 'WAVEfmt ' ||
      header.toString('latin1', 36, 40) !== 'data' || header.readUInt16LE(20) !== 1) return undefined
    const channels = header.readUInt16LE(22)
    const sampleRate = header.readUInt32LE(24)
    const bitsPerSample = header.readUInt16LE(34)
    const riffBytes = header.readUInt32LE(4)
    const dataBytes = header.readUInt32LE(40)
    if (channels === 0 || sampleRate === 0 || bitsPerSample === 0) return undefined
    const closed = dataBytes > 0 && riffBytes === 36 + dataBytes && (size === WAV_HEADER_BYTES + dataBytes || size === WAV_HEADER_BYTES + dataBytes + 1)
    return { sampleRate, channels, bitsPerSample, dataBytes, closed, seconds: dataBytes / (sampleRate * channels * bitsPerSample / 8) }
  } finally {
    await handle.close()
  }
}

/**
 * A WAV whose writer never closed it (Asterisk stopped mid-call): its header's sizes set from the
 * file's length, as Asterisk would have on closing (an odd byte at the end left as the pad).
 * Answers the header as it now reads.
 */
export async function repairWavHeader (path: string): Promise<WavHeader | undefined> {
  const handle = await open(path, 'r+')
  try {
    const { size } = await handle.stat()
    if (size <= WAV_HEADER_BYTES) return undefined
    const dataBytes = (size - WAV_HEADER_BYTES) & ~1
    const sizes = Buffer.alloc(4)
    sizes.writeUInt32LE(36 + dataBytes)
    await handle.write(sizes, 0, 4, 4)
    sizes.writeUInt32LE(dataBytes)
    await handle.write(sizes, 0, 4, 40)
    await handle.sync()
  } finally {
    await handle.close()
  }
  return readWavHeader(path)
}
