/**
 * How common each trigram is in the persons' names, from a sample of the newest names, so that a
 * search by several words asks the trigram index for the rarest trigrams of each word only. Every
 * trigram the index reads costs it a list as long as the number of names that hold it ("ови" is in
 * half of them); two rare trigrams per word narrow a million names to a few hundred as well as all of
 * them do, at a fraction of the cost. The choice affects speed only: the text itself is checked on
 * every candidate row.
 */

/** runs of letters and digits, as pg_trgm splits text into words */
const WORD = /[\p{L}\p{N}]+/gu

/** the distinct three-character runs inside the words of `text`, in order */
export function trigramsOf (text: string): string[] {
  const found = new Set<string>()
  for (const [word] of text.matchAll(WORD)) {
    const letters = [...word]
    for (let i = 0; i + 3 <= letters.length; i++) found.add(letters.slice(i, i + 3).join(''))
  }
  return [...found]
}

export function countTrigrams (names: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const name of names) for (const trigram of trigramsOf(name.toLowerCase())) counts.set(trigram, (counts.get(trigram) ?? 0) + 1)
  return counts
}

/**
 * the `perWord` rarest trigrams of `word` not `taken` by the words before it (unseen ones first, then
 * the earliest on a tie): "болат болатович" reads "бол", "ола" for the name and "ато", "тов" for the
 * patronymic, not the name's trigrams twice
 */
export function rarestTrigrams (word: string, counts: ReadonlyMap<string, number>, taken: ReadonlySet<string> = new Set(), perWord = 2): string[] {
  return trigramsOf(word)
    .filter((trigram) => !taken.has(trigram))
    .map((trigram, position) => ({ trigram, position, count: counts.get(trigram) ?? 0 }))
    .sort((a, b) => a.count - b.count || a.position - b.position)
    .slice(0, perWord)
    .map((t) => t.trigram)
}

interface NameTrigramsOptions {
  /** the lower-case names to count, newest first */
  loadNames: () => Promise<string[]>
  now?: () => number
  /** how long a count serves before the next search starts a new one */
  maxAgeMs?: number
}

/**
 * Per instance. The first search starts the count and does not wait for it: until it is ready every
 * trigram counts as unseen, so each word is probed by its first trigrams. A count that fails (the
 * database away) is tried again a minute later.
 */
export function createNameTrigrams ({ loadNames, now = Date.now, maxAgeMs = 3_600_000 }: NameTrigramsOptions) {
  let counts: ReadonlyMap<string, number> = new Map()
  let countedAt = -Infinity
  let counting: Promise<void> | undefined

  function recount (): Promise<void> {
    counting ??= loadNames()
      .then((names) => { counts = countTrigrams(names); countedAt = now() })
      .catch(() => { countedAt = now() - maxAgeMs + 60_000 })
      .finally(() => { counting = undefined })
    return counting
  }

  return {
    /** the trigrams the index should read for `word`, besides those `taken` for the words before it */
    probesOf (word: string, taken: ReadonlySet<string>): string[] {
      if (now() - countedAt > maxAgeMs) void recount()
      return rarestTrigrams(word, counts, taken)
    },
    /** counts now; resolves when done (also when the count failed) */
    recount,
  }
}
