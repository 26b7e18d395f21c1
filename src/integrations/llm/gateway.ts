import { traced } from '../../lib/tracing.js'
import type { LlmProviderConfig } from '../../config.js'
import { backoffDelay } from '../../lib/backoff.js'
import { UpstreamFormatError, UpstreamHttpError, UpstreamStreamError, type ChatModel, type LlmRequest, type ModelPart, type TokenUsage } from './model.js'
import { createChatModel } from './providers.js'

export type { ChatMessage, LlmRequest, TokenUsage } from './model.js'

/** a provider with the model to ask of it */
export interface LlmTarget { provider: LlmProviderConfig, model: string }

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
  if (err instanceof UpstreamHttpError) return { message: err.message, retryable: err.retryable, status: err.status, retryAfterMs: retryAfterMs(err.headers) }
  // another provider may understand the request; this one will not answer otherwise when asked again
  if (err instanceof UpstreamFormatError) return { message: err.message, retryable: false }
  // an in-band error before the first delta may pass: asked again
  if (err instanceof UpstreamStreamError) return { message: err.message, retryable: true }
  // a refused or reset connection
  return { message: `upstream connection failed: ${(err as Error)?.message ?? String(err)}`.slice(0, 500), retryable: true }
}

/**
 * Calls providers with retries before the first byte (429, 5xx, connection errors, time-outs),
 * honouring Retry-After up to a cap, then the next target of the fallback order.
 */
export function createLlmGateway (policy: RetryPolicy, modelFor: (target: LlmTarget) => ChatModel = (t) => createChatModel(t.provider, t.model)) {
  const models = new Map<string, ChatModel>()
  const model = (t: LlmTarget) => {
    const key = `${t.provider.name}\u0000${t.model}`
    let m = models.get(key)
    if (!m) { m = modelFor(t); models.set(key, m) }
    return m
  }
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
          const answer = await model(target).complete(req, timing.signal)
          return { ...answer, provider: target.provider.name, model: target.model, attempts }
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
      let parts: AsyncIterator<ModelPart> | undefined
      const read = async () => {
        try {
          return await parts!.next()
        } catch (err) {
          throw timing!.signal.reason instanceof TimeoutError ? timing!.signal.reason : err
        }
      }
      // up to the first delta: retried
      const opened = await withRetries(targets, outer, async (target, attempts) => {
        timing?.done()
        timing = attemptSignal(target.provider.timeoutMs, outer)
        try {
          parts = await model(target).stream(req, timing.signal)
          const { value, done } = await read()
          if (done) throw new Error('upstream ended the stream before any text')
          return value.type === 'delta' ? { target, attempts, first: value.text } : { target, attempts, first: '', finish: value }
        } catch (err) {
          timing.done()
          timing.abort()
          throw timing.signal.reason instanceof TimeoutError ? timing.signal.reason : err
        }
      })
      const { target, attempts } = opened
      const fail = (message: string): never => { throw new LlmCallError(message, target.provider.name, target.model, attempts) }
      let finished = false
      try {
        let finish = opened.finish
        if (opened.first) yield { type: 'delta', text: opened.first }
        while (!finish) {
          timing!.rearm()
          let part: IteratorResult<ModelPart>
          try {
            part = await read()
          } catch (err) {
            if (outer?.aborted) throw outer.reason
            return fail(classify(err).message)
          }
          if (part.done) return fail('upstream ended the stream without a finish signal')
          if (part.value.type === 'delta') yield { type: 'delta', text: part.value.text }
          else finish = part.value
        }
        finished = true
        yield { type: 'done', usage: finish.usage, finishReason: finish.finishReason, provider: target.provider.name, model: target.model, attempts }
      } finally {
        timing!.done()
        // a consumer that stops early (client gone) or a broken stream aborts the upstream request;
        // a finished one keeps its connection for the next request
        if (!finished) timing!.abort()
        await parts!.return?.(undefined).catch(() => {})
      }
    },
  }
}

export type LlmGateway = ReturnType<typeof createLlmGateway>
