// Measuring sound in tests: a tone's level at one frequency (Goertzel), the level of what is heard.

/** a sine of `hz` at `amplitude` (0-1), `seconds` long */
export const sine = (rate: number, hz: number, seconds: number, amplitude = 0.5): Float32Array =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amplitude * Math.sin(2 * Math.PI * hz * i / rate))

/** float samples as 16-bit ones */
export const pcm16 = (samples: Float32Array): Int16Array => Int16Array.from(samples, (s) => Math.max(-32768, Math.min(32767, Math.round(s * 32768))))

/** the samples of a 16-bit PCM buffer as numbers from -1 to 1 */
export const floats = (pcm: Buffer): Float32Array => Float32Array.from({ length: pcm.length / 2 }, (_, i) => pcm.readInt16LE(i * 2) / 32768)

/** the RMS level (dBFS) of the component at `hz`, by Goertzel's algorithm over the whole signal */
export function levelAt (samples: Float32Array, rate: number, hz: number): number {
  const coefficient = 2 * Math.cos(2 * Math.PI * hz / rate)
  let s1 = 0
  let s2 = 0
  for (const x of samples) {
    const s0 = x + coefficient * s1 - s2
    s2 = s1
    s1 = s0
  }
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
  const amplitude = 2 * Math.sqrt(Math.max(power, 0)) / samples.length
  return 20 * Math.log10(Math.max(amplitude / Math.SQRT2, 1e-12))
}

/** the RMS level (dBFS) of the whole signal */
export function level (samples: Float32Array): number {
  let sum = 0
  for (const s of samples) sum += s * s
  return 10 * Math.log10(Math.max(sum / samples.length, 1e-24))
}
