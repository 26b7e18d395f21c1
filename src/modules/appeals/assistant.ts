// The LLM at the desk (issue 14, item 5): a summary and a classification suggestion for an appeal, and
// the review of an answer, through the LLM module's gateway. The review runs after the answer is
// committed: a slow or failing model never holds up or refuses an answer.
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { AppError, RequestValidationError } from '../../lib/errors.js'
import type { LlmService } from '../llm/service.js'
import type { AppealRepo, AppealRow } from './repo.js'
import type { AnswerCheck, AppealSuggestBody } from './schemas.js'
import type { AppealLiveEvent } from './service.js'

/** the LLM tasks' input bound (llm/schemas MAX_TEXT): a longer transcript is cut, and the answer says so */
const MAX_LLM_TEXT = 30_000

export interface AppealAssistantDeps {
  llm: Pick<LlmService, 'summarize' | 'classify' | 'checkResponse'>
  repo: Pick<AppealRepo, 'call' | 'setAnswerCheck'>
  /** the appeal if the principal may see it (404 otherwise) */
  visible: (principal: Principal, id: number) => Promise<AppealRow>
  clock: Clock
  publish: (event: AppealLiveEvent) => Promise<void>
  log: { warn: (o: object, m: string) => void }
}

export function createAppealAssistant (deps: AppealAssistantDeps) {
  const { llm, repo, clock } = deps
  /** reviews in flight: a stop waits for them */
  const pending = new Set<Promise<void>>()

  async function review (appeal: AppealRow, actor: Principal): Promise<AnswerCheck> {
    const checkedAt = () => clock().toISOString()
    try {
      const r = await llm.checkResponse({ appeal_text: appeal.text, response_text: appeal.answer_text! }, actor)
      return { status: r.success ? 'done' : 'failed', source: 'service', result: r.result, provider: r.provider, model: r.model, error: r.error, checked_at: checkedAt() }
    } catch (err) {
      // no provider configured (503) or the like: said in the check, never thrown at the answer
      const status = err instanceof AppError && err.statusCode === 503 ? 'unavailable' : 'failed'
      return { status, source: 'service', result: null, provider: null, model: null, error: (err as Error).message, checked_at: checkedAt() }
    }
  }

  return {
    async suggest (principal: Principal, id: number, body: AppealSuggestBody) {
      const appeal = await deps.visible(principal, id)
      const call = appeal.call_row_id === null ? undefined : await repo.call(appeal.call_row_id)
      const transcript = call?.transcript.trim() ?? ''
      const wanted = body.source ?? 'auto'
      if (wanted === 'transcript' && !transcript) {
        throw RequestValidationError.field(['body', 'source'], appeal.call_row_id === null ? 'The appeal was not registered from a call' : 'The call has no transcript', wanted)
      }
      const source: 'text' | 'transcript' = wanted === 'text' || (wanted === 'auto' && !transcript) ? 'text' : 'transcript'
      const full = source === 'text' ? appeal.text : transcript
      const text = full.slice(0, MAX_LLM_TEXT)
      const selection = { provider: body.provider, model: body.model }
      const [summary, classification] = await Promise.all([
        llm.summarize({ text, role: 'operator', ...selection }, principal),
        llm.classify({ text, ...selection }, principal),
      ])
      const suggested = (classification.result?.category_id as number | null | undefined) ?? null
      return {
        appeal_id: appeal.id,
        source,
        truncated: full.length > text.length,
        summary,
        classification: { ...classification, subcategory_id: suggested, matches_current: suggested === appeal.subcategory_id },
      }
    },

    /** reviews the committed answer in the background and keeps the result with it, if it is still the answer */
    reviewLater (appeal: AppealRow, actor: Principal) {
      const answeredAt = appeal.answered_at!
      const work = (async () => {
        const check = await review(appeal, actor)
        if (await repo.setAnswerCheck(appeal.id, answeredAt, check)) {
          await deps.publish({ type: 'appeal.answer_checked', organization_id: appeal.executor_organization_id, appeal_id: appeal.id, number: appeal.number, status: appeal.status })
        }
      })().catch((err: unknown) => deps.log.warn({ err, appeal_id: appeal.id }, 'the answer review could not be kept'))
      pending.add(work)
      void work.finally(() => pending.delete(work))
    },

    /** waits for the reviews in flight */
    flush: async () => { await Promise.all(pending) },
  }
}

export type AppealAssistant = ReturnType<typeof createAppealAssistant>
