import { performance } from 'node:perf_hooks'
import type { LlmConfig } from '../../config.js'
import { LlmCallError, type ChatMessage, type LlmAnswer, type LlmGateway, type LlmRequest, type LlmTarget, type TokenUsage } from '../../integrations/llm/gateway.js'
import type { Principal } from '../../lib/auth.js'
import { AppError, RequestValidationError, ServiceUnavailableError } from '../../lib/errors.js'
import { createRedactor, noRedaction, type Redactor } from '../../lib/pii.js'
import type { Direction, SummaryRole } from './prompts.js'
import { repairPrompt } from './prompts.js'
import type { Metrics } from '../../lib/metrics.js'
import type { LlmCallRecord, LlmRepo, LlmTask } from './repo.js'
import type { CompletionBody } from './schemas.js'
import { checkResponseTask, classifyTask, readAnswer, summarizeTask, translateTask, type Choice, type TaskName, type TaskSpec } from './tasks.js'

/** the most classifier subcategories offered to the model in one classify call */
export const MAX_CHOICES = 500
const TASK_TEMPERATURE = 0.1
const TASK_MAX_TOKENS = 4096

const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }

class UpstreamError extends AppError {
  constructor (detail: string) { super(502, 'llm_upstream_failed', detail) }
}

interface Selection { provider?: string, model?: string }

/** what a streamed request emits, in the order the SSE route writes it */
export type StreamWireEvent =
  | { type: 'delta', text: string }
  | { type: 'done', usage: TokenUsage, finish_reason: string, provider: string, model: string, processing_time: number }
  | { type: 'error', error: string, provider: string, model: string, processing_time: number }

export interface LlmServiceDeps {
  config: LlmConfig
  gateway: LlmGateway
  repo: LlmRepo
  /** the active classifier subcategories, for classify without categories */
  choices: (limit: number) => Promise<Choice[]>
  log: { warn: (obj: object, msg: string) => void }
  metrics: Pick<Metrics, 'llmCall' | 'failure'>
}

const seconds = (since: number) => Math.round(performance.now() - since) / 1000

export function createLlmService ({ config, gateway, repo, choices, log, metrics }: LlmServiceDeps) {
  const providers = new Map(config.providers.map((p) => [p.name, p]))

  /** the named provider alone, or the default one with the fallback order behind it */
  function targetsFor ({ provider, model }: Selection): LlmTarget[] {
    if (providers.size === 0) throw new ServiceUnavailableError('No LLM provider is configured: set LLM_PROVIDERS or LLM_<NAME>_BASE_URL')
    if (provider !== undefined && !providers.has(provider)) {
      throw RequestValidationError.field(['body', 'provider'], `Unknown provider '${provider}'; configured: ${[...providers.keys()].join(', ')}`, provider)
    }
    const first = providers.get(provider ?? config.defaultProvider!)!
    if (model !== undefined && !first.models.includes(model)) {
      throw RequestValidationError.field(['body', 'model'], `Provider '${first.name}' has no model '${model}'; configured: ${first.models.join(', ')}`, model)
    }
    const rest = provider !== undefined ? [] : config.fallback.filter((n) => n !== first.name).map((n) => providers.get(n)!)
    return [{ provider: first, model: model ?? first.model }, ...rest.map((p) => ({ provider: p, model: p.model }))]
  }

  const redactorFor = (targets: LlmTarget[]): Redactor =>
    (config.redactPii ?? targets.some((t) => t.provider.external)) ? createRedactor() : noRedaction

  const redacted = (messages: ChatMessage[], redactor: Redactor) => messages.map((m) => ({ ...m, content: redactor.redact(m.content) }))

  const accounting = createAccounting(repo, log)
  /** accounting must never cost the caller its answer, nor delay it: the row is kept and written later, with others */
  function record (row: Omit<LlmCallRecord, 'prompt' | 'answer'>, prompt: ChatMessage[], answer: string | null) {
    accounting.add(config.logPrompts ? { ...row, prompt, answer } : row)
    metrics.llmCall({ provider: row.provider, task: row.task, outcome: row.outcome, seconds: row.latency_ms / 1000, inputTokens: row.prompt_tokens ?? undefined, outputTokens: row.completion_tokens ?? undefined })
    if (row.outcome === 'error') metrics.failure('llm_request')
  }

  function recordAnswer (task: LlmTask, actor: Principal | null | undefined, started: number, redactor: Redactor, request: LlmRequest, outcome: LlmAnswer | LlmCallError, text: string | null) {
    const base = { task, user_id: actor?.id ?? null, latency_ms: Math.round(performance.now() - started), redacted: redactor.count > 0 }
    if (outcome instanceof LlmCallError) {
      record({ ...base, provider: outcome.provider, model: outcome.model, attempts: outcome.attempts, outcome: 'error', error: outcome.message }, request.messages, null)
    } else {
      record({ ...base, provider: outcome.provider, model: outcome.model, attempts: outcome.attempts, outcome: 'ok', ...outcome.usage }, request.messages, text)
    }
  }

  /** one generate call, redacted on the way out and restored on the way back, recorded */
  async function generate (task: LlmTask, actor: Principal | null | undefined, targets: LlmTarget[], messages: ChatMessage[], options: { temperature?: number, maxTokens?: number }) {
    const redactor = redactorFor(targets)
    const request = { messages: redacted(messages, redactor), temperature: options.temperature, maxTokens: options.maxTokens }
    const started = performance.now()
    try {
      const answer = await gateway.generate(targets, request)
      recordAnswer(task, actor, started, redactor, request, answer, answer.text)
      return { ok: true as const, answer: { ...answer, text: redactor.restore(answer.text) }, targets, redactor, request, started }
    } catch (err) {
      if (!(err instanceof LlmCallError)) throw err
      recordAnswer(task, actor, started, redactor, request, err, null)
      return { ok: false as const, error: err, started }
    }
  }

  const withSystem = (messages: ChatMessage[], systemPrompt?: string): ChatMessage[] =>
    systemPrompt ? [{ role: 'system', content: systemPrompt }, ...messages] : messages

  /** a task: the answer parsed and checked, with one repair attempt when it is not valid */
  async function runTask (task: TaskName, spec: TaskSpec, actor: Principal | null | undefined, targets: LlmTarget[]) {
    const options = { temperature: TASK_TEMPERATURE, maxTokens: TASK_MAX_TOKENS }
    const first = await generate(task, actor, targets, spec.messages, options)
    if (!first.ok) return taskFailure(first.error, first.started)
    let answer = first.answer
    let read = readAnswer(answer.text, spec)
    let usage = answer.usage
    if ('problem' in read) {
      const repair: ChatMessage[] = [...spec.messages, { role: 'assistant', content: answer.text }, { role: 'user', content: repairPrompt(read.problem) }]
      // the repair goes to whoever answered
      const second = await generate(task, actor, targetsFor({ provider: answer.provider, model: answer.model }), repair, options)
      if (!second.ok) return taskFailure(second.error, first.started)
      answer = second.answer
      usage = sum(usage, answer.usage)
      read = readAnswer(answer.text, spec)
    }
    const base = { provider: answer.provider, model: answer.model, usage, processing_time: seconds(first.started) }
    if ('problem' in read) return { success: false, result: null, ...base, error: `the model's answer is not valid after one repair attempt: ${read.problem}` }
    return { success: true, result: spec.finish ? spec.finish(read.result) : read.result, ...base, error: null }
  }

  const taskFailure = (err: LlmCallError, started: number) =>
    ({ success: false, result: null, provider: err.provider, model: err.model, usage: NO_USAGE, processing_time: seconds(started), error: err.message })

  return {
    models: () => config.providers.map((p) => ({
      provider: p.name,
      kind: p.kind,
      default_model: p.model,
      models: p.models,
      is_default: p.name === config.defaultProvider,
      external: p.external,
      redacts_pii: config.redactPii ?? p.external,
    })),

    /** upstream failure is an answer (success false, error), not an HTTP error: see docs/llm.md */
    async complete (body: CompletionBody, actor?: Principal | null) {
      const outcome = await generate('complete', actor, targetsFor(body), withSystem(body.messages, body.system_prompt), { temperature: body.temperature, maxTokens: body.max_tokens })
      if (!outcome.ok) {
        const e = outcome.error
        return { success: false, text: '', provider: e.provider, model: e.model, usage: NO_USAGE, processing_time: seconds(outcome.started), finish_reason: null, error: e.message }
      }
      const a = outcome.answer
      return { success: true, text: a.text, provider: a.provider, model: a.model, usage: a.usage, processing_time: seconds(outcome.started), finish_reason: a.finishReason, error: null }
    },

    /** the answer's text only; an upstream failure is 502, since the result has no place for it */
    async simple (body: { prompt: string, provider?: string, model?: string, system_prompt?: string }, actor?: Principal | null) {
      const outcome = await generate('simple', actor, targetsFor(body), withSystem([{ role: 'user', content: body.prompt }], body.system_prompt), {})
      if (!outcome.ok) throw new UpstreamError(`The LLM provider failed: ${outcome.error.message}`)
      return { text: outcome.answer.text }
    },

    /**
     * Checks the request now (422/503 before any byte is sent), then yields the wire events.
     * Breaking out of the iteration (the client left) aborts the upstream request.
     */
    openStream (body: CompletionBody, actor: Principal | null | undefined, signal: AbortSignal): AsyncGenerator<StreamWireEvent> {
      const targets = targetsFor(body)
      const redactor = redactorFor(targets)
      const request = { messages: redacted(withSystem(body.messages, body.system_prompt), redactor), temperature: body.temperature, maxTokens: body.max_tokens }
      return (async function * () {
        const started = performance.now()
        const restorer = redactor.streamRestorer()
        let sent = ''
        let outcome: 'ok' | 'error' | 'aborted' = 'aborted'
        let last: { provider: string, model: string, attempts: number, usage: TokenUsage, error?: string } = { provider: targets[0]!.provider.name, model: targets[0]!.model, attempts: 0, usage: NO_USAGE }
        try {
          for await (const event of gateway.stream(targets, request, signal)) {
            if (event.type === 'delta') {
              const text = restorer.push(event.text)
              sent += event.text
              if (text) yield { type: 'delta', text }
              continue
            }
            const rest = restorer.flush()
            if (rest) yield { type: 'delta', text: rest }
            last = { provider: event.provider, model: event.model, attempts: event.attempts, usage: event.usage }
            outcome = 'ok'
            yield { type: 'done', usage: event.usage, finish_reason: event.finishReason, provider: event.provider, model: event.model, processing_time: seconds(started) }
          }
        } catch (err) {
          if (!(err instanceof LlmCallError)) {
            if (signal.aborted) return
            throw err
          }
          outcome = 'error'
          last = { provider: err.provider, model: err.model, attempts: err.attempts, usage: NO_USAGE, error: err.message }
          yield { type: 'error', error: err.message, provider: err.provider, model: err.model, processing_time: seconds(started) }
        } finally {
          record({
            task: 'stream', provider: last.provider, model: last.model, attempts: last.attempts, outcome, error: last.error ?? (outcome === 'aborted' ? 'client disconnected' : null),
            user_id: actor?.id ?? null, latency_ms: Math.round(performance.now() - started), redacted: redactor.count > 0, ...last.usage,
          }, request.messages, sent)
        }
      })()
    },

    summarize: (body: { text: string, role?: SummaryRole } & Selection, actor?: Principal | null) =>
      runTask('summarize', summarizeTask(body.text, body.role ?? 'operator'), actor, targetsFor(body)),

    translate: (body: { text: string, direction?: Direction } & Selection, actor?: Principal | null) =>
      runTask('translate', translateTask(body.text, body.direction ?? 'auto-ru'), actor, targetsFor(body)),

    async classify (body: { text: string, categories?: string[] } & Selection, actor?: Principal | null) {
      const targets = targetsFor(body) // 422/503 before the database is asked
      const offered = body.categories
        ? [...new Set(body.categories.map((c) => c.trim()).filter(Boolean))].map((label) => ({ label, id: null }))
        : await choices(MAX_CHOICES)
      if (offered.length === 0) throw RequestValidationError.field(['body', 'categories'], 'No categories given and the classifiers have no active subcategories', body.categories ?? null)
      return runTask('classify', classifyTask(body.text, offered), actor, targets)
    },

    checkResponse: (body: { appeal_text: string, response_text: string } & Selection, actor?: Principal | null) =>
      runTask('check-response', checkResponseTask(body.appeal_text, body.response_text), actor, targetsFor(body)),

    /** the period's sums, this instance's latest calls included */
    usage: async (from: Date, to: Date) => { await accounting.flush(); return repo.usage(from, to) },

    /** waits for the accounting rows still being written */
    /** writes the accounting rows kept so far (a stop waits for it) */
    flush: () => accounting.flush(),
  }
}

function sum (a: TokenUsage, b: TokenUsage): TokenUsage {
  return { prompt_tokens: a.prompt_tokens + b.prompt_tokens, completion_tokens: a.completion_tokens + b.completion_tokens, total_tokens: a.total_tokens + b.total_tokens }
}

export type LlmService = ReturnType<typeof createLlmService>

/** rows kept for the next write at most this long, or until this many wait */
const ACCOUNTING_INTERVAL_MS = 1000
const ACCOUNTING_BATCH = 200
/** a database gone for long: the oldest rows beyond this many are given up, said in the log */
const ACCOUNTING_KEPT_AT_MOST = 20_000

/**
 * The gateway's accounting, off the answer's path: each call's row is kept in memory with the moment
 * it happened and written with the others in one insert, every second or every 200 rows (one write
 * of the embedded database blocks the event loop for its duration: per call, it landed on the next
 * call's answer). A failed write keeps its rows for the next one.
 */
function createAccounting (repo: Pick<LlmRepo, 'recordMany'>, log: LlmServiceDeps['log']) {
  let kept: LlmCallRecord[] = []
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()

  function write (): Promise<void> {
    clearTimeout(timer)
    timer = undefined
    writing = writing.then(async () => {
      const rows = kept
      kept = []
      if (rows.length === 0) return
      try {
        await repo.recordMany(rows)
      } catch (err) {
        kept = [...rows, ...kept]
        const lost = kept.length - ACCOUNTING_KEPT_AT_MOST
        if (lost > 0) kept = kept.slice(lost)
        log.warn({ err, waiting: kept.length, lost: Math.max(0, lost) }, 'LLM calls not recorded yet: kept for the next write')
        schedule()
      }
    })
    return writing
  }
  function schedule () {
    if (timer === undefined) timer = setTimeout(() => { void write() }, ACCOUNTING_INTERVAL_MS).unref()
  }
  return {
    add (row: LlmCallRecord) {
      kept.push({ ...row, created_at: row.created_at ?? new Date() })
      if (kept.length >= ACCOUNTING_BATCH) setImmediate(() => { void write() })
      else schedule()
    },
    flush: write,
  }
}
