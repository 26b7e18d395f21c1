// Which number the organization's context is given for a citizen's number, and whether the
// terminal may dial it: matched against the rules the dialplan is written from (the organization's
// outbound routes, or trunks/dial-patterns.ts's built-in rules), asked before Asterisk is, so that a
// refusal is said in words (403) rather than heard as congestion.
import type { RouteForPbx } from '../trunks/queries.js'
import { builtInDialRules, patternRegExp } from '../trunks/dial-patterns.js'

export interface DialRules {
  areaCode: string | null
  localDigits: number | null
  /** the organization's outbound routes; none: the built-in rules (local numbers, then 8... and +7... for long-distance terminals) */
  routes: RouteForPbx[] | undefined
  allowLongDistance: boolean
}

export type Dialling = { exten: string } | { refused: string }

/** the forms a +7 number is dialled in, the local one first (no long-distance permission needed) */
function formsOf (e164: string, rules: Pick<DialRules, 'areaCode' | 'localDigits'>): string[] {
  const national = e164.slice(2)
  const { areaCode, localDigits } = rules
  const local = areaCode && localDigits && national.startsWith(areaCode) && national.length - areaCode.length === localDigits
    ? [national.slice(areaCode.length)]
    : []
  return [...local, `8${national}`, `+7${national}`, `7${national}`]
}

const LONG_DISTANCE = 'Long-distance and mobile calls are not allowed from your terminal'

/** the extension to run in the terminal's context for `e164`, or why the terminal may not call it */
export function diallingOf (e164: string, rules: DialRules): Dialling {
  const own = rules.routes !== undefined && rules.routes.length > 0
  // the organization's routes, or the rules the dialplan has without them
  const routes = own
    ? rules.routes!.map((r) => ({ patterns: r.patterns, longDistance: r.long_distance }))
    : builtInDialRules(rules).map((r) => ({ patterns: [r.pattern], longDistance: r.longDistance }))
  let refused: string | undefined
  for (const form of formsOf(e164, rules)) {
    const route = routes.find((r) => r.patterns.some((p) => patternRegExp(p).test(form)))
    if (!route) continue
    if (route.longDistance && !rules.allowLongDistance) { refused ??= LONG_DISTANCE; continue }
    return { exten: form }
  }
  return { refused: refused ?? 'No outbound route of the organization takes this number' }
}
