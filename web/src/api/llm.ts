import { api } from './client'
import { keys } from './keys'
import { load } from './load'

// The LLM's tasks the console asks for (/api/llm): the desk's assistant, the answer's review, usage.

export const summarize = (text: string) => load(api.POST('/api/llm/tasks/summarize', { body: { text, role: 'operator' } }))
export const translate = (text: string, direction: 'auto-ru' | 'auto-kk') => load(api.POST('/api/llm/tasks/translate', { body: { text, direction } }))
export const classify = (text: string) => load(api.POST('/api/llm/tasks/classify', { body: { text } }))
export const checkResponse = (appealText: string, responseText: string) => load(api.POST('/api/llm/tasks/check-response', { body: { appeal_text: appealText, response_text: responseText } }))

export const llmUsageQuery = (from: string, to: string) => ({
  queryKey: keys.board.llmUsage(from, to),
  queryFn: () => load(api.GET('/api/llm/usage', { params: { query: { date_from: from, date_to: to } } })),
})
