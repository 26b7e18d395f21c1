import type { LlmProviderConfig } from '../../config.js'
import { parseEventJson, postJson, readJson, sseEvents, UpstreamFormatError, UpstreamStreamError, usageOf, type ChatModel, type FinishReason, type LlmRequest, type ModelPart } from './model.js'

// OpenAI's chat completions (POST {base_url}/chat/completions), as OpenAI, vLLM, Ollama, OpenRouter
// and the compatible modes of GigaChat and YandexGPT speak it: JSON, or SSE chunks ending in [DONE].

const FINISH: Record<string, FinishReason> = { stop: 'stop', length: 'length', content_filter: 'content-filter', tool_calls: 'tool-calls', function_call: 'tool-calls' }
const finishReason = (raw: unknown): FinishReason => FINISH[String(raw)] ?? 'other'

interface Usage { prompt_tokens?: number, completion_tokens?: number }
const usage = (u: Usage | undefined) => usageOf(u?.prompt_tokens ?? 0, u?.completion_tokens ?? 0)

export function openAiCompatibleModel (provider: LlmProviderConfig, model: string): ChatModel {
  const url = `${provider.baseUrl}/chat/completions`
  const headers: Record<string, string> = provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}
  const payload = (req: LlmRequest, stream: boolean) => ({
    model,
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: req.temperature,
    max_tokens: req.maxTokens,
    ...(stream ? { stream: true, ...(provider.streamOptions ? { stream_options: { include_usage: true } } : {}) } : {}),
  })

  return {
    async complete (req, signal) {
      const answer = await readJson(await postJson(url, headers, payload(req, false), signal)) as { choices?: { message?: { content?: unknown }, finish_reason?: unknown }[], usage?: Usage }
      const choice = answer.choices?.[0]
      if (!choice?.message) throw new UpstreamFormatError('no choices[0].message in the answer')
      const text = choice.message.content
      return { text: typeof text === 'string' ? text : '', usage: usage(answer.usage), finishReason: finishReason(choice.finish_reason) }
    },

    async stream (req, signal) {
      return parts(sseEvents(await postJson(url, headers, payload(req, true), signal)))
    },
  }
}

/** the chunks' deltas; the finish part once the stream is over (the usage chunk may follow the finish reason) */
async function * parts (events: AsyncGenerator<{ data: string }>): AsyncGenerator<ModelPart> {
  let finish: FinishReason | undefined
  let counted: Usage | undefined
  try {
    for await (const { data } of events) {
      if (data === '[DONE]') break
      const chunk = parseEventJson(data)
      if (chunk.error) throw new UpstreamStreamError(`upstream sent an error: ${chunk.error.message ?? JSON.stringify(chunk.error)}`)
      if (chunk.usage) counted = chunk.usage
      const choice = chunk.choices?.[0]
      if (choice?.finish_reason) finish = finishReason(choice.finish_reason)
      const text = choice?.delta?.content
      if (typeof text === 'string' && text !== '') yield { type: 'delta', text }
    }
  } finally {
    await events.return(undefined)
  }
  if (finish === undefined) throw new UpstreamStreamError('upstream ended the stream without a finish signal')
  yield { type: 'finish', usage: usage(counted), finishReason: finish }
}
