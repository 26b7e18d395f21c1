import type { LlmProviderConfig } from '../../config.js'
import { parseEventJson, postJson, readJson, sseEvents, UpstreamFormatError, UpstreamStreamError, usageOf, type ChatMessage, type ChatModel, type FinishReason, type LlmRequest, type ModelPart } from './model.js'

// Anthropic's messages (POST {base_url}/messages): the system prompt apart, content as text blocks,
// and its stream's event sequence (message_start, content_block_delta, message_delta, message_stop).

const API_VERSION = '2023-06-01'
/** max_tokens is required by the API; what a request that names none may take */
const DEFAULT_MAX_TOKENS = 4096
/** Claude models from Opus 4.7 and generation 5 on refuse sampling parameters (temperature) with a 400 */
const REFUSES_TEMPERATURE = /claude-(?:opus-4-[7-9]|[a-z]+-[5-9](?![0-9]))/

const FINISH: Record<string, FinishReason> = {
  end_turn: 'stop', stop_sequence: 'stop', pause_turn: 'stop', max_tokens: 'length', model_context_window_exceeded: 'length', refusal: 'content-filter', tool_use: 'tool-calls',
}
const finishReason = (raw: unknown): FinishReason => FINISH[String(raw)] ?? 'other'

interface Usage { input_tokens?: number, output_tokens?: number, cache_creation_input_tokens?: number, cache_read_input_tokens?: number }
const inputTokens = (u: Usage | undefined) => (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0)

/** system messages become the `system` blocks; neighbours of one role are one turn, as the API wants */
function conversation (messages: ChatMessage[]) {
  const system = messages.filter((m) => m.role === 'system').map((m) => ({ type: 'text' as const, text: m.content }))
  const turns: { role: 'user' | 'assistant', content: { type: 'text', text: string }[] }[] = []
  for (const m of messages) {
    if (m.role === 'system') continue
    const last = turns.at(-1)
    if (last?.role === m.role) last.content.push({ type: 'text', text: m.content })
    else turns.push({ role: m.role, content: [{ type: 'text', text: m.content }] })
  }
  return { ...(system.length > 0 ? { system } : {}), messages: turns }
}

export function anthropicModel (provider: LlmProviderConfig, model: string): ChatModel {
  const url = `${provider.baseUrl}/messages`
  const headers = { 'x-api-key': provider.apiKey ?? '', 'anthropic-version': API_VERSION }
  const takesTemperature = !REFUSES_TEMPERATURE.test(model)
  const payload = (req: LlmRequest, stream: boolean) => ({
    model,
    max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
    ...(takesTemperature ? { temperature: req.temperature } : {}),
    ...conversation(req.messages),
    ...(stream ? { stream: true } : {}),
  })

  return {
    async complete (req, signal) {
      const answer = await readJson(await postJson(url, headers, payload(req, false), signal)) as { content?: { type?: string, text?: unknown }[], stop_reason?: unknown, usage?: Usage }
      if (!Array.isArray(answer.content)) throw new UpstreamFormatError('no content blocks in the answer')
      const text = answer.content.flatMap((block) => block.type === 'text' && typeof block.text === 'string' ? [block.text] : []).join('')
      return { text, usage: usageOf(inputTokens(answer.usage), answer.usage?.output_tokens ?? 0), finishReason: finishReason(answer.stop_reason) }
    },

    async stream (req, signal) {
      return parts(sseEvents(await postJson(url, headers, payload(req, true), signal)))
    },
  }
}

async function * parts (events: AsyncGenerator<{ data: string }>): AsyncGenerator<ModelPart> {
  let input = 0
  let output = 0
  let finish: FinishReason = 'other'
  let stopped = false
  try {
    for await (const { data } of events) {
      const event = parseEventJson(data)
      switch (event.type) {
        case 'message_start':
          input = inputTokens(event.message?.usage)
          output = event.message?.usage?.output_tokens ?? 0
          break
        case 'content_block_delta':
          if (event.delta?.type === 'text_delta' && typeof event.delta.text === 'string' && event.delta.text !== '') yield { type: 'delta', text: event.delta.text }
          break
        case 'message_delta':
          if (event.delta?.stop_reason) finish = finishReason(event.delta.stop_reason)
          if (event.usage?.output_tokens !== undefined) output = event.usage.output_tokens
          if (event.usage?.input_tokens !== undefined) input = inputTokens(event.usage)
          break
        case 'error':
          throw new UpstreamStreamError(`upstream sent an error: ${event.error?.message ?? JSON.stringify(event.error)}`)
        case 'message_stop':
          stopped = true
          break
      }
      if (stopped) break
    }
  } finally {
    await events.return(undefined)
  }
  if (!stopped) throw new UpstreamStreamError('upstream ended the stream without a finish signal')
  yield { type: 'finish', usage: usageOf(input, output), finishReason: finish }
}
