import { StringDecoder } from 'node:string_decoder'
import { request, type Dispatcher } from 'undici'

// The project's provider interface: one chat model per provider and model, over its wire format
// (openai-compatible.ts, anthropic.ts). HTTP is undici's `request` on its pooled keep-alive
// connections; the answers are read with plain async iteration. See docs/llm.md and
// docs/benchmarks.md for why this is not the AI SDK's provider layer any more.

export interface ChatMessage { role: 'system' | 'user' | 'assistant', content: string }

export interface LlmRequest {
  messages: ChatMessage[]
  temperature?: number
  maxTokens?: number
}

export interface TokenUsage { prompt_tokens: number, completion_tokens: number, total_tokens: number }

/** the AI SDK's unified finish reasons, which the service has answered since its first version */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'

export interface ModelAnswer { text: string, usage: TokenUsage, finishReason: FinishReason }

export type ModelPart =
  | { type: 'delta', text: string }
  | { type: 'finish', usage: TokenUsage, finishReason: FinishReason }

export interface ChatModel {
  complete: (req: LlmRequest, signal: AbortSignal) => Promise<ModelAnswer>
  /** text deltas, then one finish part; a failure (an in-band error, no finish signal) is thrown */
  stream: (req: LlmRequest, signal: AbortSignal) => Promise<AsyncIterator<ModelPart>>
}

/** the upstream answered with an HTTP error status */
export class UpstreamHttpError extends Error {
  constructor (readonly status: number, readonly headers: Record<string, string>, detail: string) {
    super(`upstream answered ${status}: ${detail}`.slice(0, 500))
    this.name = 'UpstreamHttpError'
  }

  get retryable (): boolean { return this.status === 429 || this.status >= 500 }
}

/** the upstream answered 2xx with something that is not its wire format: asking again will not help */
export class UpstreamFormatError extends Error {
  constructor (detail: string) {
    super(`upstream answer not understood: ${detail}`.slice(0, 500))
    this.name = 'UpstreamFormatError'
  }
}

/** the upstream reported a failure inside a stream, or left it without its finish signal */
export class UpstreamStreamError extends Error {
  constructor (detail: string) {
    super(detail.slice(0, 500))
    this.name = 'UpstreamStreamError'
  }
}

export const usageOf = (prompt: number, completion: number): TokenUsage =>
  ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion })

/** a whole answer at most this big; a stream's single event at most this big */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024
const MAX_EVENT_BYTES = 1024 * 1024
/** read past a stream's end mark at most this much before the connection is given up */
const DRAIN_BYTES = 64 * 1024

type Body = Dispatcher.ResponseData['body']

/** POSTs JSON; an HTTP error status is thrown as UpstreamHttpError with the provider's own message */
export async function postJson (url: string, headers: Record<string, string>, payload: unknown, signal: AbortSignal): Promise<Body> {
  const answer = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload), signal })
  if (answer.statusCode >= 200 && answer.statusCode < 300) return answer.body
  const text = await readText(answer.body).catch(() => '')
  throw new UpstreamHttpError(answer.statusCode, flatHeaders(answer.headers), errorDetail(text))
}

function flatHeaders (raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  return flat
}

/**
 * The upstream's own words: OpenAI and Anthropic answer `{error: {message}}`, Ollama `{error: "..."}`,
 * vLLM `{message}`, a FastAPI proxy `{detail}`; anything else is shown as it came.
 */
function errorDetail (text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | unknown, message?: unknown, detail?: unknown }
    const message = [typeof body?.error === 'object' ? (body.error as { message?: unknown } | null)?.message : body?.error, body?.message, body?.detail]
      .find((m) => typeof m === 'string' && m !== '')
    if (typeof message === 'string') return message
  } catch { /* not JSON */ }
  return text.trim() === '' ? 'no details' : text.trim()
}

async function readText (body: Body): Promise<string> {
  const parts: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += (chunk as Buffer).length
    if (size > MAX_ANSWER_BYTES) { body.destroy(); throw new UpstreamFormatError(`more than ${MAX_ANSWER_BYTES} bytes`) }
    parts.push(chunk as Buffer)
  }
  return Buffer.concat(parts).toString('utf8')
}

/** a 2xx answer's JSON */
export async function readJson (body: Body): Promise<unknown> {
  const text = await readText(body)
  try {
    return JSON.parse(text)
  } catch {
    throw new UpstreamFormatError(`not JSON: ${text.slice(0, 200)}`)
  }
}

export interface SseEvent { event: string, data: string }

/** Server-Sent Events as they arrive (the WHATWG parsing rules: LF or CRLF, comments, multi-line data) */
export async function * sseEvents (body: Body): AsyncGenerator<SseEvent> {
  const decoder = new StringDecoder('utf8')
  let pending = ''
  let event = ''
  let data: string[] = []
  // a consumer that stops at the provider's end mark must not cost the connection: not destroyed on return
  const chunks = body.iterator({ destroyOnReturn: false })
  try {
    for await (const chunk of chunks) {
      pending += decoder.write(chunk as Buffer)
      let end: number
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.charCodeAt(end - 1) === 13 ? pending.slice(0, end - 1) : pending.slice(0, end)
        pending = pending.slice(end + 1)
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') }
          event = ''
          data = []
          continue
        }
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        const value = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1)
        if (field === 'data') data.push(value)
        else if (field === 'event') event = value
      }
      if (pending.length > MAX_EVENT_BYTES) throw new UpstreamFormatError(`a stream line over ${MAX_EVENT_BYTES} bytes`)
    }
  } finally {
    // what follows the end mark is read and dropped, so that the connection serves the next request
    // (a bounded read; an aborted request ends it at once)
    if (!body.readableEnded) body.dump({ limit: DRAIN_BYTES }).catch(() => {})
  }
}

export function parseEventJson (data: string): Record<string, any> {
  try {
    const value: unknown = JSON.parse(data)
    if (value !== null && typeof value === 'object') return value as Record<string, any>
  } catch { /* below */ }
  throw new UpstreamFormatError(`a stream event that is not a JSON object: ${data.slice(0, 200)}`)
}
