import { Type, type Static } from 'typebox'
import { Nullable } from '../../lib/common-schemas.js'

/** inputs are bounded (DESIGN 5.9): a call transcript or an appeal fits, a book does not */
export const MAX_TEXT = 30_000
const MAX_SYSTEM_PROMPT = 8_000

const Provider = Type.String({ minLength: 1, maxLength: 64, description: 'a configured provider (GET /api/llm/models); default: LLM_DEFAULT_PROVIDER, with the LLM_FALLBACK order behind it' })
const Model = Type.String({ minLength: 1, maxLength: 255, description: 'one of the provider\'s models; default: its default model' })
const SystemPrompt = Type.String({ maxLength: MAX_SYSTEM_PROMPT })
const Text = (description?: string) => Type.String({ minLength: 1, maxLength: MAX_TEXT, ...(description ? { description } : {}) })

export const ChatMessage = Type.Object({
  role: Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String({ maxLength: MAX_TEXT }),
}, { $id: 'ChatMessage', additionalProperties: false })

export const CompletionRequest = Type.Object({
  messages: Type.Array(Type.Unsafe<Static<typeof ChatMessage>>({ $ref: 'ChatMessage#' }), { minItems: 1, maxItems: 100 }),
  provider: Type.Optional(Provider),
  model: Type.Optional(Model),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2, default: 0.7 })),
  max_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 16_384, default: 2048 })),
  system_prompt: Type.Optional(SystemPrompt),
}, { $id: 'CompletionRequest', additionalProperties: false })

export const SimpleRequest = Type.Object({
  prompt: Text(),
  provider: Type.Optional(Provider),
  model: Type.Optional(Model),
  system_prompt: Type.Optional(SystemPrompt),
}, { $id: 'SimpleRequest', additionalProperties: false })

export const SummaryRole = Type.Union([Type.Literal('operator'), Type.Literal('supervisor'), Type.Literal('citizen')], { default: 'operator', description: 'who reads the summary' })
export const TranslationDirection = Type.Union([Type.Literal('kk-ru'), Type.Literal('ru-kk'), Type.Literal('auto-ru'), Type.Literal('auto-kk')], { default: 'auto-ru' })

export const SummarizeRequest = Type.Object({
  text: Text('a call transcript or an appeal'), role: Type.Optional(SummaryRole), provider: Type.Optional(Provider), model: Type.Optional(Model),
}, { $id: 'SummarizeRequest', additionalProperties: false })

export const TranslateRequest = Type.Object({
  text: Text(), direction: Type.Optional(TranslationDirection), provider: Type.Optional(Provider), model: Type.Optional(Model),
}, { $id: 'TranslateRequest', additionalProperties: false })

export const ClassifyRequest = Type.Object({
  text: Text('the appeal'),
  categories: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 500, description: 'the labels to choose from; absent: the active subcategories of the classifiers' })),
  provider: Type.Optional(Provider),
  model: Type.Optional(Model),
}, { $id: 'ClassifyRequest', additionalProperties: false })

export const CheckResponseRequest = Type.Object({
  appeal_text: Text('the citizen\'s appeal'), response_text: Text('the official reply'), provider: Type.Optional(Provider), model: Type.Optional(Model),
}, { $id: 'CheckResponseRequest', additionalProperties: false })

export const LLMUsage = Type.Object({
  prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer(),
}, { $id: 'LLMUsage' })
const UsageRef = Type.Unsafe<Static<typeof LLMUsage>>({ $ref: 'LLMUsage#' })

export const CompletionResponse = Type.Object({
  success: Type.Boolean(),
  text: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  usage: UsageRef,
  processing_time: Type.Number({ description: 'seconds' }),
  finish_reason: Nullable(Type.String()),
  error: Nullable(Type.String({ description: 'why the upstream failed (success false); null on success' })),
}, { $id: 'CompletionResponse' })

export const SimpleResponse = Type.Object({ text: Type.String() }, { $id: 'SimpleResponse' })

export const TaskResponse = Type.Object({
  success: Type.Boolean(),
  result: Nullable(Type.Object({}, { additionalProperties: true, description: 'the task\'s structured answer (see docs/llm.md); null when success is false' })),
  provider: Type.String(),
  model: Type.String(),
  usage: UsageRef,
  processing_time: Type.Number({ description: 'seconds' }),
  error: Nullable(Type.String()),
}, { $id: 'TaskResponse' })

export const LLMModelInfo = Type.Object({
  provider: Type.String(),
  kind: Type.String(),
  default_model: Type.String(),
  models: Type.Array(Type.String()),
  is_default: Type.Boolean(),
  external: Type.Boolean({ description: 'runs outside the centre: personal data is redacted unless LLM_REDACT_PII=false' }),
  redacts_pii: Type.Boolean(),
}, { $id: 'LLMModelInfo' })

export const UsageQuery = Type.Object({
  date_from: Type.Optional(Type.String({ format: 'date', description: 'first day (UTC), default 30 days ago' })),
  date_to: Type.Optional(Type.String({ format: 'date', description: 'last day (UTC), default today; at most 366 days after date_from' })),
})

export const LLMUsageRow = Type.Object({
  day: Type.String({ format: 'date' }),
  provider: Type.String(),
  task: Type.String(),
  calls: Type.Integer(),
  failures: Type.Integer(),
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  avg_latency_ms: Type.Integer(),
}, { $id: 'LLMUsageRow' })

export type CompletionBody = Static<typeof CompletionRequest>

export const schemas = [ChatMessage, CompletionRequest, SimpleRequest, SummarizeRequest, TranslateRequest, ClassifyRequest, CheckResponseRequest, LLMUsage, CompletionResponse, SimpleResponse, TaskResponse, LLMModelInfo, LLMUsageRow]
