import type { FormInstance } from 'antd'
import type { TFunction } from 'i18next'
import type { ApiProblem, FieldProblem } from '../api/client'

/**
 * Puts a 422's messages on the form's fields (`loc` is `['body', 'field', ...]`, or `query`) and
 * answers what belongs to no field, to show above the form.
 */
export function showProblems (form: FormInstance, problem: ApiProblem, t: TFunction): string | undefined {
  if (problem.status === 0) return t('common.networkError')
  if (!Array.isArray(problem.detail)) return typeof problem.detail === 'string' ? problem.detail : t('common.unexpected', { status: problem.status })
  const known = new Set(Object.keys(form.getFieldsValue() as object))
  const byField = new Map<string, string[]>()
  const rest: string[] = []
  for (const p of problem.detail) {
    const field = fieldOf(p)
    const text = p.type === 'missing' ? t('common.required') : translated(t)[p.msg] ?? p.msg
    if (field && known.has(field)) byField.set(field, [...(byField.get(field) ?? []), text])
    else rest.push(text)
  }
  form.setFields([...byField].map(([name, errors]) => ({ name, errors })))
  return rest.length > 0 ? rest.join('; ') : undefined
}

const translated = (t: TFunction) => t('apiMessages', { returnObjects: true }) as Record<string, string>
const fieldOf = (p: FieldProblem) => (p.loc[0] === 'body' || p.loc[0] === 'query') && typeof p.loc[1] === 'string' ? p.loc[1] : undefined
