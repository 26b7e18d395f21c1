// Band-limited sample-rate conversion: a polyphase windowed-sinc filter (Kaiser window), as
// libsamplerate's and SoX's high-quality converters are built. The rates' ratio is kept exact
// (L/M after their greatest common divisor), so 44 100 Hz to 16 000 Hz is 160 phases, each a
// short filter computed once; the low-pass sits below the lower rate's Nyquist, which is what
// keeps a 10 kHz whistle in a 44.1 kHz file from folding back as a 6 kHz one at 16 kHz.

/** zero crossings of the sinc on each side of a phase's centre, at the lower of the two rates */
const HALF_ZEROS = 16
/** Kaiser's β: about 80 dB of stop-band attenuation */
const KAISER_BETA = 8
/** the pass band ends at this fraction of the lower rate's Nyquist frequency */
const ROLLOFF = 0.94

const gcd = (a: number, b: number): number => b === 0 ? a : gcd(b, a % b)

/** the zeroth-order modified Bessel function of the first kind, by its series */
function besselI0 (x: number): number {
  let sum = 1
  let term = 1
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2
    sum += term
    if (term < sum * 1e-12) break
  }
  return sum
}

interface Filter { phases: number, step: number, span: number, taps: Float32Array[] }

/** each phase's taps: the windowed sinc sampled at that phase's fractional offset, summing to 1 */
function designFilter (from: number, to: number): Filter {
  const divisor = gcd(from, to)
  const phases = to / divisor
  const step = from / divisor
  const cutoff = Math.min(1, to / from) * ROLLOFF // in cycles per input sample, times 2
  const span = Math.ceil(HALF_ZEROS / cutoff)
  const window = (t: number) => Math.abs(t) >= span ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - (t / span) ** 2)) / besselI0(KAISER_BETA)
  const sinc = (t: number) => t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t)
  const taps: Float32Array[] = []
  for (let p = 0; p < phases; p++) {
    const offset = p / phases
    const phase = new Float32Array(2 * span)
    let sum = 0
    for (let j = 0; j < 2 * span; j++) {
      const t = offset - (j - span + 1) // from input sample k0 + j - span + 1 to the output's instant
      phase[j] = cutoff * sinc(cutoff * t) * window(t)
      sum += phase[j]!
    }
    for (let j = 0; j < phase.length; j++) phase[j]! /= sum
    taps.push(phase)
  }
  return { phases, step, span, taps }
}

const filters = new Map<string, Filter>()

/** `input`, sampled at `from` Hz, sampled at `to` Hz (both whole numbers) */
export function resample (input: Float32Array, from: number, to: number): Float32Array {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from <= 0 || to <= 0) throw new RangeError(`Sample rates must be positive whole numbers: ${from}, ${to}`)
  if (from === to) return input.slice()
  const key = `${from}:${to}`
  const filter = filters.get(key) ?? designFilter(from, to)
  if (!filters.has(key)) {
    if (filters.size >= 16) filters.clear()
    filters.set(key, filter)
  }
  const { phases, step, span, taps } = filter
  const output = new Float32Array(Math.floor(input.length * to / from))
  const last = input.length - 1
  for (let n = 0; n < output.length; n++) {
    const position = n * step
    const base = Math.floor(position / phases)
    const phase = taps[position - base * phases]!
    const first = base - span + 1
    let acc = 0
    if (first >= 0 && first + phase.length - 1 <= last) {
      for (let j = 0; j < phase.length; j++) acc += input[first + j]! * phase[j]!
    } else {
      for (let j = 0; j < phase.length; j++) {
        const k = first + j
        if (k >= 0 && k <= last) acc += input[k]! * phase[j]!
      }
    }
    output[n] = acc
  }
  return output
}
