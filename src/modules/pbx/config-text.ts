// The pieces every generated file is written with. Sorting is by code unit, not by locale: the same
// rows give the same bytes whatever the ICU data of the machine, and it is many times faster.

// eslint-disable-next-line no-control-regex -- control characters must not reach a configuration comment
export const comment = (text: string) => text.replace(/[\x00-\x1f\x7f[\];]/g, ' ').trim()
export const yn = (b: boolean) => (b ? 'yes' : 'no')
export const section = (name: string, lines: string[]) => [`[${name}]`, ...lines, '']

/** compares by UTF-16 code unit (ids, numbers, extensions and dates are ASCII) */
export const ordinal = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** a sorted copy, by a text key */
export const sortedBy = <T>(items: readonly T[], key: (item: T) => string): T[] => [...items].sort((a, b) => ordinal(key(a), key(b)))

/**
 * A file as the pieces it is written in, an organization's lines a piece: 100,000 terminals make
 * 100 MB of text, which is written piece by piece instead of held, and joined, as one string.
 */
export type ConfigPieces = Iterable<string>

/** groups of lines as pieces of one text whose lines are joined by newlines */
export function * pieces (groups: Iterable<string[]>): Generator<string> {
  let first = true
  for (const lines of groups) {
    if (lines.length === 0) continue
    yield first ? lines.join('\n') : `\n${lines.join('\n')}`
    first = false
  }
}

export const wholeText = (text: ConfigPieces) => [...text].join('')
