// Tones said into a call and found in what the other side heard.

/** a sine of `hz` at `rate`, `seconds` long, at a third of full scale */
export const sine = (rate: number, hz: number, seconds: number) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(10_000 * Math.sin(2 * Math.PI * hz * i / rate)))

/** the power of one frequency in the samples (Goertzel), per sample: compare two tones' in the same stretch */
export function powerAt (samples: ArrayLike<number>, rate: number, hz: number): number {
  const k = 2 * Math.cos(2 * Math.PI * hz / rate)
  let s1 = 0
  let s2 = 0
  for (let i = 0; i < samples.length; i++) {
    const s0 = samples[i]! + k * s1 - s2
    s2 = s1
    s1 = s0
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / Math.max(1, samples.length)
}
