import { Ajv } from 'ajv'
import { Type, type Static, type TSchema } from 'typebox'
import type { ChatMessage } from '../../integrations/llm/gateway.js'
import { checkResponseInput, checkResponsePrompt, classifyPrompt, summarizePrompt, translatePrompt, type Direction, type SummaryRole } from './prompts.js'
import { deeperThan, MAX_JSON_DEPTH } from '../../lib/json-depth.js'

export type TaskName = 'summarize' | 'translate' | 'classify' | 'check-response'

/** a label the classify task may choose, with the classifier id when it comes from the database */
export interface Choice { label: string, id: number | null }

/** What each task asks and what a valid answer looks like. */
export interface TaskSpec {
  messages: ChatMessage[]
  schema: TSchema
  /** a problem the schema cannot see (an invented category), or undefined */
  check?: (result: Record<string, unknown>) => string | undefined
  /** the answer as the client gets it */
  finish?: (result: Record<string, unknown>) => Record<string, unknown>
}

const Language = Type.String({ minLength: 2, maxLength: 8 })

const SummaryResult = Type.Object({
  summary: Type.String({ minLength: 1 }),
  key_points: Type.Array(Type.String()),
  citizen_request: Type.String(),
  language: Type.Optional(Language),
})

const TranslationResult = Type.Object({
  translation: Type.String({ minLength: 1 }),
  source_language: Language,
  target_language: Language,
})

const Confidence = Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')])
const ClassificationResult = Type.Object({
  category: Type.String({ minLength: 1 }),
  confidence: Confidence,
  reasoning: Type.String(),
  alternatives: Type.Array(Type.String()),
  needs_human_review: Type.Boolean(),
})

const CheckResult = Type.Object({
  points: Type.Array(Type.Object({ point: Type.String(), answered: Type.Boolean(), evidence: Type.Union([Type.String(), Type.Null()]) }), { minItems: 1 }),
  appeal_language: Language,
  response_language: Language,
  same_language: Type.Boolean(),
  cites_legal_basis: Type.Boolean(),
  legal_references: Type.Array(Type.String()),
  states_facts: Type.Boolean(),
  explains_right_to_appeal: Type.Boolean(),
  verdict: Type.Union([Type.Literal('complete'), Type.Literal('partial'), Type.Literal('inadequate')]),
  missing: Type.Array(Type.String()),
  summary: Type.String(),
})

export function summarizeTask (text: string, role: SummaryRole): TaskSpec {
  return {
    messages: [{ role: 'system', content: summarizePrompt(role) }, { role: 'user', content: text }],
    schema: SummaryResult,
    finish: (r) => ({ ...r, role }),
  }
}

export function translateTask (text: string, direction: Direction): TaskSpec {
  return {
    messages: [{ role: 'system', content: translatePrompt(direction) }, { role: 'user', content: text }],
    schema: TranslationResult,
    finish: (r) => ({ ...r, direction }),
  }
}

export function classifyTask (text: string, choices: Choice[]): TaskSpec {
  const byLabel = new Map(choices.map((c) => [c.label, c]))
  return {
    messages: [{ role: 'system', content: classifyPrompt(choices.map((c) => c.label)) }, { role: 'user', content: text }],
    schema: ClassificationResult,
    check: (r) => byLabel.has(r.category as string) ? undefined : `категории "${String(r.category)}" нет в списке; выбери строку из списка`,
    finish: (r) => {
      const result = r as Static<typeof ClassificationResult>
      return {
        ...result,
        category_id: byLabel.get(result.category)!.id,
        // alternatives outside the list are dropped rather than passed on
        alternatives: result.alternatives.filter((a) => byLabel.has(a) && a !== result.category),
      }
    },
  }
}

export function checkResponseTask (appeal: string, response: string): TaskSpec {
  return {
    messages: [{ role: 'system', content: checkResponsePrompt() }, { role: 'user', content: checkResponseInput(appeal, response) }],
    schema: CheckResult,
  }
}

const ajv = new Ajv({ allErrors: false, strict: false })
const compiled = new WeakMap<TSchema, ReturnType<typeof ajv.compile>>()

/** the JSON object in a model's answer (a ```json fence or prose around it tolerated), checked */
export function readAnswer (text: string, spec: TaskSpec): { result: Record<string, unknown> } | { problem: string } {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end < start) return { problem: 'в ответе нет JSON-объекта' }
  const json = text.slice(start, end + 1)
  if (deeperThan(json) >= 0) return { problem: `JSON вложен глубже ${MAX_JSON_DEPTH} уровней` }
  let value: unknown
  try { value = JSON.parse(json) } catch (err) { return { problem: `JSON не разбирается (${(err as Error).message})` } }
  let validate = compiled.get(spec.schema)
  if (!validate) { validate = ajv.compile(spec.schema); compiled.set(spec.schema, validate) }
  if (!validate(value)) {
    const e = validate.errors![0]!
    return { problem: `поле ${e.instancePath || '/'} ${e.message ?? 'неверно'}` }
  }
  const problem = spec.check?.(value as Record<string, unknown>)
  return problem ? { problem } : { result: value as Record<string, unknown> }
}
