// Ogg encapsulation of Opus (RFC 7845 on RFC 3533): the pages a compressed recording is written in,
// and read back to check it. Mono, one logical stream; granule positions count 48 kHz samples.

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, i) => {
  let r = i << 24
  for (let b = 0; b < 8; b++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1
  return r >>> 0
})

/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial 0, over the page with its CRC field zero */
function oggCrc (bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0
  return crc
}

const BOS = 0x02
const EOS = 0x04
/** the packets of one page, at most (255 lacing values; a 60 ms packet at 12 kbit/s needs one) */
const PACKETS_A_PAGE = 50

function page (packets: Buffer[], flags: number, granule: bigint, serial: number, sequence: number): Buffer {
  const lacing: number[] = []
  for (const p of packets) {
    for (let left = p.length; ; left -= 255) {
      lacing.push(Math.min(left, 255))
      if (left < 255) break
    }
  }
  const header = Buffer.alloc(27 + lacing.length)
  header.write('OggS', 0, 'latin1')
  header[5] = flags
  header.writeBigInt64LE(granule, 6)
  header.writeUInt32LE(serial, 14)
  header.writeUInt32LE(sequence, 18)
  header[26] = lacing.length
  Buffer.from(lacing).copy(header, 27)
  const whole = Buffer.concat([header, ...packets])
  whole.writeUInt32LE(oggCrc(whole), 22)
  return whole
}

/** the identification header: mono, `preSkip` samples at 48 kHz to drop, the source's rate */
function opusHead (preSkip: number, inputRate: number): Buffer {
  const head = Buffer.alloc(19)
  head.write('OpusHead', 0, 'latin1')
  head[8] = 1
  head[9] = 1
  head.writeUInt16LE(preSkip, 10)
  head.writeUInt32LE(inputRate, 12)
  return head
}

function opusTags (vendor: string): Buffer {
  const v = Buffer.from(vendor, 'utf8')
  const tags = Buffer.alloc(8 + 4 + v.length + 4)
  tags.write('OpusTags', 0, 'latin1')
  tags.writeUInt32LE(v.length, 8)
  v.copy(tags, 12)
  return tags
}

/**
 * An Ogg Opus stream written as its packets come, each `frameSamples48k` long at 48 kHz, whose
 * decoded audio is `samples48k` long after `preSkip`: `head()` gives the two header pages, `add()` a
 * page once it holds enough packets, `end()` the last. A page's granule position counts the samples
 * its packets and those before decode to, the pre-skip's among them (RFC 7845 4); the last page's
 * ends the audio there, trimming the padding of the last frame.
 */
export function oggOpusWriter ({ frameSamples48k, preSkip, samples48k, inputRate, vendor, serial }: {
  frameSamples48k: number, preSkip: number, samples48k: number, inputRate: number, vendor: string, serial: number
}): { head: () => Buffer, add: (packet: Buffer) => Buffer | undefined, end: () => Buffer } {
  let waiting: Buffer[] = []
  let packets = 0
  let sequence = 2
  return {
    head: () => Buffer.concat([page([opusHead(preSkip, inputRate)], BOS, 0n, serial, 0), page([opusTags(vendor)], 0, 0n, serial, 1)]),
    // a full page goes out when the next packet comes: the last page always holds packets
    add (packet) {
      let full: Buffer | undefined
      if (waiting.length === PACKETS_A_PAGE) {
        full = page(waiting, 0, BigInt(packets * frameSamples48k), serial, sequence++)
        waiting = []
      }
      waiting.push(packet)
      packets++
      return full
    },
    end: () => page(waiting, EOS, BigInt(preSkip + samples48k), serial, sequence++),
  }
}

/** what an Ogg Opus file holds, read page by page with each page's CRC checked */
export interface ReadOggOpus { preSkip: number, inputRate: number, packets: Buffer[], lastGranule: bigint }

export function readOggOpus (bytes: Buffer): ReadOggOpus {
  const { preSkip, inputRate, audio } = openOggOpus(bytes)
  const packets = [...audio]
  return { preSkip, inputRate, packets, lastGranule: lastGranuleOf(bytes) }
}

/** the stream's header, and its audio packets read one at a time as they are asked for (each page's CRC checked) */
export function openOggOpus (bytes: Buffer): { preSkip: number, inputRate: number, audio: Generator<Buffer> } {
  const packets = packetsOf(bytes)
  const head = packets.next().value
  const tags = packets.next().value
  if (!head || head.length < 19 || head.toString('latin1', 0, 8) !== 'OpusHead' || !tags || tags.toString('latin1', 0, 8) !== 'OpusTags') throw new Error('not an Ogg Opus stream')
  return { preSkip: head.readUInt16LE(10), inputRate: head.readUInt32LE(12), audio: packets }
}

/** the granule position of the stream's last page: where its audio ends */
export function lastGranuleOf (bytes: Buffer): bigint {
  let lastGranule = -1n
  for (const page of pagesOf(bytes)) lastGranule = bytes.readBigInt64LE(page.at + 6)
  return lastGranule
}

function * pagesOf (bytes: Buffer): Generator<{ at: number, segments: number, lacing: Buffer, end: number }> {
  let at = 0
  while (at < bytes.length) {
    if (bytes.toString('latin1', at, at + 4) !== 'OggS') throw new Error(`no Ogg page at byte ${at}`)
    if (at + 27 > bytes.length || at + 27 + bytes[at + 26]! > bytes.length) throw new Error(`a page at byte ${at} runs past the end`)
    const segments = bytes[at + 26]!
    const lacing = bytes.subarray(at + 27, at + 27 + segments)
    const bodyLength = lacing.reduce((n, l) => n + l, 0)
    const end = at + 27 + segments + bodyLength
    if (end > bytes.length) throw new Error(`a page at byte ${at} runs past the end`)
    const copy = Buffer.from(bytes.subarray(at, end))
    const crc = copy.readUInt32LE(22)
    copy.writeUInt32LE(0, 22)
    if (oggCrc(copy) !== crc) throw new Error(`the page at byte ${at} fails its CRC`)
    yield { at, segments, lacing, end }
    at = end
  }
}

function * packetsOf (bytes: Buffer): Generator<Buffer> {
  let pending: Buffer[] = []
  for (const { at, segments, lacing } of pagesOf(bytes)) {
    let body = at + 27 + segments
    for (const l of lacing) {
      pending.push(bytes.subarray(body, body + l))
      body += l
      if (l < 255) { yield pending.length === 1 ? pending[0]! : Buffer.concat(pending); pending = [] }
    }
  }
}
