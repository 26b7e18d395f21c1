import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import type { LlmProviderConfig } from '../../config.js'

/**
 * The AI SDK's provider layer: one call and stream model (LanguageModelV3) over the OpenAI chat
 * completions and Anthropic messages wire formats. Retries are ours (gateway.ts), not the SDK's.
 */
export function createLanguageModel (provider: LlmProviderConfig, modelId: string): LanguageModelV3 {
  if (provider.kind === 'anthropic') {
    return createAnthropic({ baseURL: provider.baseUrl, apiKey: provider.apiKey ?? '' }).languageModel(modelId)
  }
  return createOpenAICompatible({
    name: provider.name,
    baseURL: provider.baseUrl,
    ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
    includeUsage: provider.streamOptions,
  }).chatModel(modelId)
}
