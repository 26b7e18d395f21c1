import type { FormInstance } from 'antd'
import type { TFunction } from 'i18next'
import type { ApiProblem } from '../api/client'

/**
 * Puts a 422's messages on the form's fields and answers what belongs to no field, to show above
 * the form. `loc` is `['body', 'field', ...]` (or `query`); a nested field (`['body', 'citizen',
 * 'iin']`) lands on the form's item of that path, else on the nearest enclosing one.
 */
export function showProblems (form: FormInstance, problem: ApiProblem, t: TFunction): string | undefined {
  if (problem.status === 0) return t('common.networkError')
  const duplicate = takenValue(problem)
  const column = duplicate?.column ?? (problem.code ? FIELD_OF_CODE[problem.code] : undefined)
  const field = column && form.getFieldsError().find((f) => f.name.join('.') === column)
  if (field) {
    form.setFields([{ name: field.name, errors: [problemText(t, problem)] }])
    return undefined
  }
  if (!Array.isArray(problem.detail)) return problemText(t, problem)
  const fields = new Map(form.getFieldsError().map((f) => [f.name.join('.'), f.name]))
  const byField = new Map<string, { name: (string | number)[], errors: string[] }>()
  const rest: string[] = []
  for (const p of problem.detail) {
    const text = p.type === 'missing' ? t('common.required') : messageOf(t, p.msg)
    const path = p.loc[0] === 'body' || p.loc[0] === 'query' ? p.loc.slice(1) : []
    // the field itself; else, for a row of a list (`hours.1`), the row's first field; else the nearest enclosing one
    const exact = path.join('.')
    let key: string | undefined = fields.has(exact) ? exact : path.length > 0 ? [...fields.keys()].find((k) => k.startsWith(`${exact}.`)) : undefined
    for (let n = path.length - 1; n > 0 && key === undefined; n--) if (fields.has(path.slice(0, n).join('.'))) key = path.slice(0, n).join('.')
    if (key === undefined) { rest.push(text); continue }
    const entry = byField.get(key) ?? { name: fields.get(key)!, errors: [] }
    entry.errors.push(text)
    byField.set(key, entry)
  }
  form.setFields([...byField.values()])
  return rest.length > 0 ? rest.join('; ') : undefined
}

/** the service's messages that carry a value, and the key of their words (the value as `{{value}}`) */
const MESSAGE_PATTERNS: [RegExp, string][] = [
  [/^Overlaps (\d\d:\d\d-\d\d:\d\d) of the same day$/, 'apiPatterns.overlaps'],
  [/^Takes the extension (\d+) of a terminal/, 'apiPatterns.takesExtension'],
  [/^The route «(.+)» already has this pattern$/, 'apiPatterns.patternTaken'],
  [/^Trunk (\d+) does not exist$/, 'apiPatterns.noTrunk'],
  [/^The set \[(.*)\] is not a list/, 'apiPatterns.badSet'],
  [/^No organization has the prefix (\d+)$/, 'apiPatterns.noPrefix'],
  [/^Asterisk is not answering: (.*)$/s, 'apiPatterns.asteriskSilent'],
]

/** a message of the service in the console's language when the console knows it */
export function messageOf (t: TFunction, message: string): string {
  const known = (t('apiMessages', { returnObjects: true }) as Record<string, string>)[message]
  if (known !== undefined) return known
  for (const [pattern, key] of MESSAGE_PATTERNS) {
    const m = pattern.exec(message)
    if (m) return t(key as 'apiPatterns.overlaps', { value: m[1] })
  }
  return message
}

/** the field of the form a refusal is about, by its code (`citizen.iin` for a person registered already) */
const FIELD_OF_CODE: Record<string, string> = { person_exists: 'citizen.iin', number_not_allowed: 'number', not_permitted: 'number', own_terminal: 'extension' }

/**
 * A problem said as one sentence in the console's language, for a refused action that has no form
 * to put it on: by the refusal's code, else by the service's known message, else by its status, so
 * no English message of the service reaches the page.
 */
export function problemText (t: TFunction, problem: ApiProblem): string {
  if (problem.status === 0) return t('common.networkError')
  const duplicate = takenValue(problem)
  if (duplicate) return t('common.taken', { value: duplicate.value })
  if (Array.isArray(problem.detail)) return problem.detail.map((p) => messageOf(t, p.msg)).join('; ')
  const byCode = problem.code === undefined ? undefined : (t('errors.codes', { returnObjects: true }) as Record<string, string>)[problem.code]
  const byMessage = typeof problem.detail === 'string' ? (t('apiMessages', { returnObjects: true }) as Record<string, string>)[problem.detail] : undefined
  return byCode ?? byMessage ?? t(problem.status >= 500 ? 'errors.fault' : 'errors.refused', { status: problem.status })
}

/** a 409 for a unique value already taken: the service says `<column> '<value>' already exists` */
function takenValue (problem: ApiProblem): { column: string, value: string } | undefined {
  if (problem.status !== 409 || typeof problem.detail !== 'string') return undefined
  const m = /^(.+) '(.*)' already exists$/.exec(problem.detail)
  return m ? { column: m[1]!, value: m[2]! } : undefined
}
