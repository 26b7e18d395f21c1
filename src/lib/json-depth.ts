/**
 * How deep JSON text may nest. No schema of the service nests past a handful of levels; deeper text
 * is refused before it is parsed, because every recursive walk of the parsed value (validation,
 * the 422 that echoes the input, serialisation, PostgreSQL's jsonb) overflows its stack somewhere
 * between 3,000 and 5,000 levels, and each would have answered 500.
 */
export const MAX_JSON_DEPTH = 64

/** the offset of the bracket that opens level `max + 1` of the JSON text, or -1 when it nests no deeper */
export function deeperThan (text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // a backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x5b || c === 0x7b) { // [ {
      if (++depth > max) return i
    } else if (c === 0x5d || c === 0x7d) { // ] }
      depth--
    }
  }
  return -1
}
