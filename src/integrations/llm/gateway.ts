import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart, type LanguageModelV3Usage } from '@ai-sdk/provider'
import { traced } from '../../lib/tracing.js'
import type { LlmProviderConfig } from '../../config.js'
import { createLanguageModel } from './providers.js'
import { backoffDelay } from '../../lib/backoff.js'

export interface ChatMessage { role: 'system' | 'user' | 'assistant', content: string }

export interface LlmRequest {
  messages: ChatMessage[]
  temperature?: number
  maxTokens?: number
}

/** a provider with the model to ask of it */
export interface LlmTarget { provider: LlmProviderConfig, model: string }

export interface TokenUsage { prompt_tokens: number, completion_tokens: number, total_tokens: number }

export interface LlmAnswer {
  text: string
  usage: TokenUsage
  finishReason: string
  provider: string
  model: string
  /** requests sent upstream, over every provider tried */
  attempts: number
}

export type LlmStreamEvent =
  | { type: 'delta', text: string }
  | ({ type: 'done' } & Omit<LlmAnswer, 'text'>)

/** the upstream failed for good: after retries and fallback, or after the first byte */
export class LlmCallError extends Error {
  constructor (message: string, readonly provider: string, readonly model: string, readonly attempts: number, readonly status?: number) {
    super(message)
    this.name = 'LlmCallError'
  }
}

export interface RetryPolicy { maxRetries: number, backoffMs: number, retryAfterCapMs: number }

interface Failure { message: string, retryable: boolean, status?: number, retryAfterMs?: number }

class TimeoutError extends Error {}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(resolve, ms)
  signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')) }, { once: true })
})

function toUsage (u: LanguageModelV3Usage | undefined): TokenUsage {
  const prompt = u?.inputTokens.total ?? 0
  const completion = u?.outputTokens.total ?? 0
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}

/** Retry-After as seconds or an HTTP date, or OpenAI's retry-after-ms */
export function retryAfterMs (headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.['retry-after-ms'])
  if (Number.isFinite(ms) && ms >= 0) return ms
  const raw = headers?.['retry-after']
  if (raw === undefined) return undefined
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Number(raw) * 1000
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function classify (err: unknown): Failure {
  if (err instanceof TimeoutError) return { message: err.message, retryable: true }
  if (APICallError.isInstance(err)) {
    const status = err.statusCode
    const retryable = status === undefined ? err.isRetryable : status === 429 || status >= 500
    const message = status === undefined ? err.message : `upstream answered ${status}: ${err.message}`.slice(0, 500)
    return { message, retryable, status, retryAfterMs: retryAfterMs(err.responseHeaders) }
  }
  // a socket reset while the body is read surfaces as a plain network error
  return { message: `upstream connection failed: ${(err as Error)?.message ?? String(err)}`.slice(0, 500), retryable: true }
}

function streamError (error: unknown): Error {
  if (error instanceof Error) return error
  const inner = error as { message?: unknown, error?: { message?: unknown } } | undefined
  const message = inner?.error?.message ?? inner?.message
  return new Error(`upstream sent an error: ${typeof message === 'string' ? message : JSON.stringify(error)}`.slice(0, 500))
}

/**
 * Calls providers with retries before the first byte (429, 5xx, connection errors, time-outs),
 * honouring Retry-After up to a cap, then the next target of the fallback order.
 */
export function createLlmGateway (policy: RetryPolicy, modelFor: (target: LlmTarget) => LanguageModelV3 = (t) => createLanguageModel(t.provider, t.model)) {
  const models = new Map<string, LanguageModelV3>()
  const model = (t: LlmTarget) => {
    const key = `${t.provider.name}\u0000${t.model}`
    let m = models.get(key)
    if (!m) { m = modelFor(t); models.set(key, m) }
    return m
  }
  const callOptions = (req: LlmRequest, abortSignal: AbortSignal): LanguageModelV3CallOptions => ({
    prompt: req.messages.map((m) => m.role === 'system'
      ? { role: 'system', content: m.content }
      : { role: m.role, content: [{ type: 'text', text: m.content }] }),
    temperature: req.temperature,
    maxOutputTokens: req.maxTokens,
    abortSignal,
  })

  /** one attempt with its own time-out; the caller's abort ends it too */
  function attemptSignal (timeoutMs: number, outer?: AbortSignal) {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new TimeoutError(`no answer within ${timeoutMs} ms`)), timeoutMs)
    const onAbort = () => controller.abort(outer!.reason)
    outer?.addEventListener('abort', onAbort, { once: true })
    return {
      signal: controller.signal,
      /** the time-out starts again (between streamed parts) */
      rearm: () => { timer.refresh() },
      done: () => { clearTimeout(timer); outer?.removeEventListener('abort', onAbort) },
      /** ends the upstream request, whatever state it is in */
      abort: () => { controller.abort(new Error('stream closed')) },
    }
  }

  /**
   * Runs `attempt` over targets and retries. `attempt` throws to fail; a failure it marks as
   * committed (bytes already given to the caller) is never retried.
   */
  async function withRetries<T> (targets: LlmTarget[], outer: AbortSignal | undefined, attempt: (target: LlmTarget, attempts: number) => Promise<T>): Promise<T> {
    let attempts = 0
    let last: { failure: Failure, target: LlmTarget } | undefined
    for (const target of targets) {
      for (let retry = 0; retry <= policy.maxRetries; retry++) {
        outer?.throwIfAborted()
        attempts++
        try {
          return await traced(`llm ${target.provider.name}`, { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': target.provider.name, 'gen_ai.request.model': target.model, 'llm.attempt': attempts }, () => attempt(target, attempts))
        } catch (err) {
          if (outer?.aborted) throw outer.reason
          if (err instanceof LlmCallError) throw err
          const failure = classify(err)
          last = { failure, target }
          if (!failure.retryable || retry === policy.maxRetries) break
          if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.retryAfterCapMs) break
          const backoff = backoffDelay(retry, { baseMs: policy.backoffMs, jitter: true })
          await sleep(failure.retryAfterMs ?? backoff, outer)
        }
      }
    }
    const failed = last!
    throw new LlmCallError(failed.failure.message, failed.target.provider.name, failed.target.model, attempts, failed.failure.status)
  }

  return {
    /** the whole answer; every failure is retried, since nothing reached the caller yet */
    generate (targets: LlmTarget[], req: LlmRequest, outer?: AbortSignal): Promise<LlmAnswer> {
      return withRetries(targets, outer, async (target, attempts) => {
        const timing = attemptSignal(target.provider.timeoutMs, outer)
        try {
          const result = await model(target).doGenerate(callOptions(req, timing.signal))
          const text = result.content.flatMap((c) => c.type === 'text' ? [c.text] : []).join('')
          return { text, usage: toUsage(result.usage), finishReason: result.finishReason.unified, provider: target.provider.name, model: target.model, attempts }
        } catch (err) {
          throw timing.signal.reason instanceof TimeoutError ? timing.signal.reason : err
        } finally {
          timing.done()
        }
      })
    },

    /**
     * Deltas as the upstream sends them. Retries and fallback happen only before the first delta;
     * a stream that breaks later, or ends without a finish signal, is an LlmCallError.
     */
    async * stream (targets: LlmTarget[], req: LlmRequest, outer?: AbortSignal): AsyncGenerator<LlmStreamEvent> {
      let timing: ReturnType<typeof attemptSignal> | undefined
      let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined
      const read = async () => {
        try {
          return await reader!.read()
        } catch (err) {
          throw timing!.signal.reason instanceof TimeoutError ? timing!.signal.reason : err
        }
      }
      // up to the first delta: retried
      const opened = await withRetries(targets, outer, async (target, attempts) => {
        timing?.done()
        timing = attemptSignal(target.provider.timeoutMs, outer)
        try {
          const { stream } = await model(target).doStream(callOptions(req, timing.signal))
          reader = stream.getReader()
          for (;;) {
            const { value, done } = await read()
            if (done) throw new Error('upstream ended the stream before any text')
            if (value.type === 'error') throw streamError(value.error)
            if (value.type === 'text-delta' && value.delta !== '') return { target, attempts, first: value.delta }
            if (value.type === 'finish') return { target, attempts, first: '', finish: value }
          }
        } catch (err) {
          timing.done()
          timing.abort()
          throw timing.signal.reason instanceof TimeoutError ? timing.signal.reason : err
        }
      })
      const { target, attempts } = opened
      const fail = (message: string): never => { throw new LlmCallError(message, target.provider.name, target.model, attempts) }
      try {
        let finish = opened.finish
        if (opened.first) yield { type: 'delta', text: opened.first }
        while (!finish) {
          timing!.rearm()
          let part: ReadableStreamReadResult<LanguageModelV3StreamPart>
          try {
            part = await read()
          } catch (err) {
            if (outer?.aborted) throw outer.reason
            return fail(classify(err).message)
          }
          if (part.done) return fail('upstream ended the stream without a finish signal')
          const value = part.value
          if (value.type === 'error') return fail(streamError(value.error).message)
          if (value.type === 'text-delta' && value.delta !== '') yield { type: 'delta', text: value.delta }
          if (value.type === 'finish') finish = value
        }
        if (finish.finishReason.unified === 'error') fail('upstream reported an error')
        yield { type: 'done', usage: toUsage(finish.usage), finishReason: finish.finishReason.unified, provider: target.provider.name, model: target.model, attempts }
      } finally {
        timing!.done()
        // a consumer that stops early (client gone) aborts the upstream request
        timing!.abort()
        await reader!.cancel().catch(() => {})
      }
    },
  }
}

export type LlmGateway = ReturnType<typeof createLlmGateway>
