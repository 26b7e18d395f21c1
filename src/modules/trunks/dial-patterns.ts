// Outbound routes' dial patterns as Asterisk reads them (`_` left out): digits, X (0-9), Z (1-9),
// N (2-9), a set [1-4] or [1257], and at the end `.` (one or more of anything). The service reads
// them too: to tell which numbers a pattern takes, whether it shadows a terminal's extension, and
// how the number it takes is written for a provider.

/** the pattern language the API accepts (the schema's check; `bracketProblem` checks the sets) */
export const DIAL_PATTERN = '^\\+?(?:[0-9XNZ]|\\[[0-9-]{1,20}\\])+\\.?$'

const CLASS: Record<string, string> = { X: '[0-9]', Z: '[1-9]', N: '[2-9]' }

/** a set's ranges read left to right; undefined when one runs backwards or is cut (`[5-]`) */
function setOf (body: string): string | undefined {
  if (/^-|-$|--/.test(body)) return undefined
  for (const m of body.matchAll(/([0-9])-([0-9])/g)) if (m[1]! > m[2]!) return undefined
  return `[${body}]`
}

/** what is wrong with a pattern the schema let through (a set such as [5-1]), or undefined */
export function patternProblem (pattern: string): string | undefined {
  for (const m of pattern.matchAll(/\[([^\]]*)\]/g)) if (!setOf(m[1]!)) return `The set [${m[1]}] is not a list of digits and ranges such as [1-4] or [1257]`
  return undefined
}

/** the pattern as a regular expression over whole numbers */
export function patternRegExp (pattern: string): RegExp {
  let out = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '[') {
      const end = pattern.indexOf(']', i)
      out += setOf(pattern.slice(i + 1, end)) ?? '(?!)'
      i = end
    } else if (c === '.') out += '.+'
    else out += CLASS[c] ?? (c === '+' ? '\\+' : c)
  }
  return new RegExp(`^${out}$`)
}

/** how many characters a number it takes has; undefined when it ends in `.` */
export function patternLength (pattern: string): number | undefined {
  if (pattern.endsWith('.')) return undefined
  return pattern.replace(/\[[^\]]*\]/g, 'X').length
}

/**
 * A number the pattern takes as a Kazakh number (+7 and ten digits), as the dialplan writes its
 * ten digits from `${EXTEN}`: 8XXXXXXXXXX, +7XXXXXXXXXX, 7XXXXXXXXXX, or a local number of the
 * organization's area. Undefined for anything else (101-104, 112, international): sent as dialled.
 */
export function nationalDigits (pattern: string, area: { areaCode: string | null, localDigits: number | null }): string | undefined {
  const length = patternLength(pattern)
  if (length === undefined) return undefined
  if (length === 12 && pattern.startsWith('+7')) return '${EXTEN:2}'
  if (length === 11 && (pattern.startsWith('8') || pattern.startsWith('7'))) return '${EXTEN:1}'
  if (area.areaCode && area.localDigits === length && !pattern.startsWith('+') && area.areaCode.length + length === 10) return `${area.areaCode}\${EXTEN}`
  return undefined
}

/** the number as a provider that wants this format is given it */
export function numberFor (format: 'e164' | 'national' | 'digits', digits: string | undefined): string {
  if (digits === undefined) return '${EXTEN}'
  return `${format === 'e164' ? '+7' : format === 'national' ? '8' : '7'}${digits}`
}

/** a number the organization dials without an outbound route of its own, as the dialplan takes it */
export interface BuiltInDialRule {
  /** Asterisk's pattern, `_` left out */
  pattern: string
  /** only terminals with allow_long_distance may dial it */
  longDistance: boolean
  /** the number given to the trunk, in the dialplan's terms (E.164 from `${EXTEN}`) */
  dialled: string
  /** the comment the dialplan says before it */
  heading?: string
}

/**
 * The built-in rules of an organization without outbound routes: its area's local numbers, then 8
 * and +7 long-distance and mobile numbers. The dialplan is written from them (pbx/generators.ts),
 * and a number placed from the console is checked against them before Asterisk is asked
 * (placed-calls/dialling.ts): one description, so the two cannot disagree.
 */
export function builtInDialRules (area: { areaCode: string | null, localDigits: number | null }): BuiltInDialRule[] {
  const local: BuiltInDialRule[] = area.areaCode && area.localDigits
    ? [{ pattern: 'X'.repeat(area.localDigits), longDistance: false, dialled: `+7${area.areaCode}\${EXTEN}`, heading: `local numbers of area ${area.areaCode}` }]
    : []
  return [
    ...local,
    { pattern: '8XXXXXXXXXX', longDistance: true, dialled: '+7${EXTEN:1}', heading: 'long distance and mobile: only for terminals with allow_long_distance' },
    { pattern: '+7XXXXXXXXXX', longDistance: true, dialled: '${EXTEN}' },
  ]
}
