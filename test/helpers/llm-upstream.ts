// A real HTTP server on 127.0.0.1 speaking the providers' wire formats: OpenAI chat completions
// (POST /v1/chat/completions, JSON or SSE with the usage chunk before [DONE]) and Anthropic messages
// (POST /v1/messages, JSON or its SSE event sequence), with the fault modes the gateway must survive.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Behaviour {
  /** a non-200 answer with this status (and headers, body) */
  status?: number
  headers?: Record<string, string>
  body?: unknown
  /** the connection is reset before any byte */
  reset?: boolean
  /** wait before the first byte */
  delayMs?: number
  /** the answer's text; streamed as `chunks` when given, else in one delta */
  text?: string
  chunks?: string[]
  chunkDelayMs?: number
  /** how a stream ends: normally, cut (socket destroyed), ended cleanly without a finish signal, an in-band error, or held open until the client leaves */
  ending?: 'normal' | 'cut' | 'no-finish' | 'error' | 'hold'
  usage?: { prompt: number, completion: number }
  /** a 200 answer that is not the provider's format (a proxy's page, say) */
  raw?: { contentType: string, body: string }
  /** the stream's lines end in CRLF, with a comment line before each event */
  crlf?: boolean
}

export interface UpstreamRequest {
  path: string
  headers: IncomingMessage['headers']
  body: Record<string, any>
  /** the client closed the connection before the answer was complete */
  aborted: boolean
  /** the client's port: the same one for requests on one kept-alive connection */
  remotePort: number
  receivedAt: number
}

export interface LlmUpstream {
  url: string
  requests: UpstreamRequest[]
  /** behaviours for the next requests, in order; after them `respond` (default: text "ok") */
  script: (...behaviours: Behaviour[]) => void
  respond: (req: UpstreamRequest) => Behaviour
  close: () => Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function sse (res: ServerResponse, data: unknown, event?: string) {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
}

/** the wire format of one provider kind: a JSON answer, and the frames of a stream */
const formats = {
  openai: {
    json: (model: string, text: string, usage: { prompt: number, completion: number }) => ({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1_700_000_000, model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
    }),
    start: (res: ServerResponse, model: string) => sse(res, { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
    delta: (res: ServerResponse, model: string, text: string) => sse(res, { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
    error: (res: ServerResponse) => sse(res, { error: { message: 'The server had an error while processing your request', type: 'server_error' } }),
    finish: (res: ServerResponse, model: string, usage: { prompt: number, completion: number }, body: Record<string, any>) => {
      sse(res, { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
      if (body.stream_options?.include_usage) {
        sse(res, { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } })
      }
      sse(res, '[DONE]')
    },
  },
  anthropic: {
    json: (model: string, text: string, usage: { prompt: number, completion: number }) => ({
      id: 'msg_1', type: 'message', role: 'assistant', model, content: [{ type: 'text', text }],
      stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: usage.prompt, output_tokens: usage.completion },
    }),
    start: (res: ServerResponse, model: string, usage: { prompt: number }) => {
      sse(res, { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.prompt, output_tokens: 1 } } }, 'message_start')
      sse(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start')
      sse(res, { type: 'ping' }, 'ping')
    },
    delta: (res: ServerResponse, _model: string, text: string) => sse(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
    error: (res: ServerResponse) => sse(res, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
    finish: (res: ServerResponse, _model: string, usage: { completion: number }) => {
      sse(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop')
      sse(res, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.completion } }, 'message_delta')
      sse(res, { type: 'message_stop' }, 'message_stop')
    },
  },
}

async function answer (res: ServerResponse, record: UpstreamRequest, b: Behaviour) {
  const format = record.path.endsWith('/messages') ? formats.anthropic : formats.openai
  if (b.delayMs) await sleep(b.delayMs)
  if (record.aborted) return
  if (b.reset) { res.socket?.resetAndDestroy(); return }
  if (b.status) {
    res.writeHead(b.status, { 'content-type': 'application/json', ...b.headers })
    res.end(JSON.stringify(b.body ?? { error: { message: `status ${b.status}`, type: 'server_error' } }))
    return
  }
  if (b.raw) {
    res.writeHead(200, { 'content-type': b.raw.contentType })
    res.end(b.raw.body)
    return
  }
  if (b.crlf) {
    const write = res.write.bind(res) as (chunk: string) => boolean
    res.write = ((chunk: string) => write(`: keep-alive\r\n${String(chunk).replaceAll('\n', '\r\n')}`)) as typeof res.write
  }
  const model = String(record.body.model)
  const text = b.text ?? 'ok'
  const usage = b.usage ?? { prompt: 11, completion: 7 }
  if (!record.body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(format.json(model, text, usage)))
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  format.start(res, model, usage)
  for (const chunk of b.chunks ?? [text]) {
    format.delta(res, model, chunk)
    if (b.chunkDelayMs) await sleep(b.chunkDelayMs)
    if (record.aborted) return
  }
  const ending = b.ending ?? 'normal'
  if (ending === 'cut') { res.socket?.destroy(); return }
  if (ending === 'no-finish') { res.end(); return }
  if (ending === 'error') { format.error(res); res.end(); return }
  if (ending === 'hold') {
    while (!record.aborted) { format.delta(res, model, '.'); await sleep(20) }
    return
  }
  format.finish(res, model, usage, record.body)
  res.end()
}

export async function startLlmUpstream (): Promise<LlmUpstream> {
  const queue: Behaviour[] = []
  const upstream: LlmUpstream = {
    url: '',
    requests: [],
    script: (...behaviours) => { queue.push(...behaviours) },
    respond: () => ({ text: 'ok' }),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
  const server = createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => {
      const record: UpstreamRequest = { path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}'), aborted: false, remotePort: req.socket.remotePort ?? 0, receivedAt: Date.now() }
      upstream.requests.push(record)
      res.on('close', () => { if (!res.writableFinished) record.aborted = true })
      answer(res, record, queue.shift() ?? upstream.respond(record)).catch(() => res.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return upstream
}
