import type { LlmProviderConfig } from '../../config.js'
import { anthropicModel } from './anthropic.js'
import type { ChatModel } from './model.js'
import { openAiCompatibleModel } from './openai-compatible.js'

/** a provider's model over its wire format; retries and fallback are the gateway's */
export function createChatModel (provider: LlmProviderConfig, model: string): ChatModel {
  return provider.kind === 'anthropic' ? anthropicModel(provider, model) : openAiCompatibleModel(provider, model)
}
