import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { once } from 'node:events'
import { Type } from 'typebox'
import { RequestValidationError } from '../../lib/errors.js'
import { bearer, ref } from '../../lib/openapi.js'
import { startEventStream, writeEvent } from '../../lib/sse.js'
import {
  CheckResponseRequest, ClassifyRequest, CompletionRequest, CompletionResponse, LLMModelInfo, LLMUsageRow, SimpleRequest, SimpleResponse,
  SummarizeRequest, TaskResponse, TranslateRequest, UsageQuery,
} from './schemas.js'
import type { LlmService } from './service.js'

const tags = ['llm']
const DAY_MS = 86_400_000
const MAX_USAGE_DAYS = 366

const routes: FastifyPluginAsyncTypebox<{ service: LlmService }> = async (app, { service }) => {
  app.get('/models', {
    schema: { tags, operationId: 'llmModels', summary: 'The configured providers and their models (empty when none is configured); keys are never shown', response: { 200: Type.Array(ref(LLMModelInfo)) } },
  }, async () => service.models())

  app.post('/complete', {
    schema: { tags, operationId: 'llmComplete', summary: 'A chat completion. An upstream failure after retries and fallback answers 200 with success false and the error', body: ref(CompletionRequest), response: { 200: ref(CompletionResponse) } },
  }, async (req) => service.complete(req.body, req.principal))

  app.post('/simple', {
    schema: { tags, operationId: 'llmSimple', summary: 'One prompt, the answer\'s text (502 when the upstream fails)', body: ref(SimpleRequest), response: { 200: ref(SimpleResponse) } },
  }, async (req) => service.simple(req.body, req.principal))

  app.post('/stream', {
    schema: {
      tags,
      operationId: 'llmStream',
      summary: 'Server-Sent Events: data {"type":"delta","text"} as the upstream sends them, then {"type":"done",usage,finish_reason,provider,model,processing_time} or {"type":"error",error}, then data [DONE]',
      body: ref(CompletionRequest),
    },
  }, async (req, reply) => {
    const upstream = new AbortController()
    const events = service.openStream(req.body, req.principal, upstream.signal)
    const res = startEventStream(req, reply)
    // a client that leaves aborts the upstream request
    res.on('close', () => { if (!res.writableEnded) upstream.abort(new Error('client disconnected')) })
    try {
      for await (const event of events) {
        if (upstream.signal.aborted) break
        // a slow client slows the upstream read instead of growing a buffer
        if (!writeEvent(res, JSON.stringify(event))) await Promise.race([once(res, 'drain'), once(res, 'close')])
      }
      if (!upstream.signal.aborted) writeEvent(res, '[DONE]')
    } catch (err) {
      req.log.error({ err }, 'LLM stream failed')
      if (!upstream.signal.aborted) writeEvent(res, JSON.stringify({ type: 'error', error: 'internal error' }))
    } finally {
      res.end()
    }
  })

  const tasks = [
    ['summarize', 'llmSummarize', SummarizeRequest, 'Summary, key points and the citizen\'s request, worded for role operator, supervisor or citizen', service.summarize],
    ['translate', 'llmTranslate', TranslateRequest, 'Translation kk-ru, ru-kk, auto-ru or auto-kk with the detected source language', service.translate],
    ['classify', 'llmClassify', ClassifyRequest, 'One of the given categories, or of the active classifier subcategories when none are given, with confidence and reasoning', service.classify],
    ['check-response', 'llmCheckResponse', CheckResponseRequest, 'Whether an official reply answers each point of the appeal, in its language, with legal basis and the right of appeal; a verdict', service.checkResponse],
  ] as const
  for (const [task, operationId, body, summary, run] of tasks) {
    app.post(`/tasks/${task}`, {
      schema: { tags, operationId, summary, body: ref(body), response: { 200: ref(TaskResponse) } },
    }, async (req) => (run as (body: unknown, actor: typeof req.principal) => ReturnType<LlmService['summarize']>)(req.body, req.principal))
  }

  app.get('/usage', {
    config: { user: ['admin'] },
    schema: { tags, security: bearer, operationId: 'llmUsage', summary: 'Calls, failures, tokens and latency by UTC day, provider and task (admin)', querystring: UsageQuery, response: { 200: Type.Array(ref(LLMUsageRow)) } },
  }, async (req) => {
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
    const to = req.query.date_to ? Date.parse(req.query.date_to) : today
    const from = req.query.date_from ? Date.parse(req.query.date_from) : to - 29 * DAY_MS
    if (to < from) throw RequestValidationError.field(['query', 'date_to'], 'date_to must not be before date_from', req.query.date_to)
    if (to - from >= MAX_USAGE_DAYS * DAY_MS) throw RequestValidationError.field(['query', 'date_to'], `at most ${MAX_USAGE_DAYS} days at once`, req.query.date_to)
    return service.usage(new Date(from), new Date(to + DAY_MS))
  })
}

export default routes
