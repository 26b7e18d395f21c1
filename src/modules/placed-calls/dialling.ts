// Which number the organization's context is given for a citizen's number, and whether the
// terminal may dial it: the same rules as the generated dialplan (pbx/generators.ts,
// pbx/trunk-config.ts), asked before Asterisk is, so that a refusal is said in words (403) rather
// than heard as congestion.
import type { RouteForPbx } from '../trunks/queries.js'
import { patternRegExp } from '../trunks/dial-patterns.js'

export interface DialRules {
  areaCode: string | null
  localDigits: number | null
  /** the organization's outbound routes; none: the built-in rules (local numbers, then 8... and +7... for long-distance terminals) */
  routes: RouteForPbx[] | undefined
  allowLongDistance: boolean
}

export type Dialling = { exten: string } | { refused: string }

/** the forms a +7 number is dialled in, the local one first (no long-distance permission needed) */
function formsOf (e164: string, rules: Pick<DialRules, 'areaCode' | 'localDigits'>): { exten: string, local: boolean }[] {
  const national = e164.slice(2)
  const { areaCode, localDigits } = rules
  const local = areaCode && localDigits && national.startsWith(areaCode) && national.length - areaCode.length === localDigits
    ? [{ exten: national.slice(areaCode.length), local: true }]
    : []
  return [...local, ...[`8${national}`, `+7${national}`, `7${national}`].map((exten) => ({ exten, local: false }))]
}

const LONG_DISTANCE = 'Long-distance and mobile calls are not allowed from your terminal'

/** the extension to run in the terminal's context for `e164`, or why the terminal may not call it */
export function diallingOf (e164: string, rules: DialRules): Dialling {
  const forms = formsOf(e164, rules)
  if (!rules.routes || rules.routes.length === 0) {
    const local = forms.find((f) => f.local)
    if (local) return { exten: local.exten }
    return rules.allowLongDistance ? { exten: forms.find((f) => f.exten.startsWith('8'))!.exten } : { refused: LONG_DISTANCE }
  }
  let refused: string | undefined
  for (const form of forms) {
    const route = rules.routes.find((r) => r.patterns.some((p) => patternRegExp(p).test(form.exten)))
    if (!route) continue
    if (route.long_distance && !rules.allowLongDistance) { refused ??= LONG_DISTANCE; continue }
    return { exten: form.exten }
  }
  return { refused: refused ?? 'No outbound route of the organization takes this number' }
}
