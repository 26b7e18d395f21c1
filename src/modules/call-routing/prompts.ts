import type { Principal } from '../../lib/auth.js'
import { WavError } from '../../lib/audio/index.js'
import { groupBy } from '../../lib/collections.js'
import { NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { promptSound } from '../../integrations/asterisk/names.js'
import { found, iso, one, type RoutingContext } from './context.js'
import { AudioError, type PromptConverter } from './prompt-audio.js'
import type { PromptResponse } from './schemas.js'

/** A tenant's recorded prompts: named sounds, each recorded in Russian and Kazakh from an uploaded file. */
export function createPromptService ({ repo, tenant, unused }: RoutingContext, converter: PromptConverter) {
  async function promptViews (prefix: string, rows: { id: number, organization_id: number, name: string, created_at: Date }[]): Promise<PromptResponse[]> {
    const recordings = groupBy(await repo.recordingsOf(rows.map((p) => p.id)), (r) => r.prompt_id)
    return rows.map((p) => ({
      id: p.id, tenant_id: p.organization_id, name: p.name, sound: promptSound(prefix, p.id), created_at: iso(p.created_at),
      recordings: (recordings.get(p.id) ?? []).map((r) => ({ language: r.language, sample_rate: r.sample_rate, duration_ms: r.duration_ms, size_bytes: r.size_bytes, uploaded_at: iso(r.uploaded_at), source: r.source ?? null })),
    }))
  }

  return {
    async list (actor: Principal, tenantId: number) {
      const org = await tenant(actor, tenantId)
      return promptViews(org.prefix, await repo.prompts(tenantId))
    },
    async create (actor: Principal, tenantId: number, name: string) {
      const org = await tenant(actor, tenantId)
      return one(promptViews(org.prefix, [await repo.insertPrompt({ organization_id: tenantId, name })]))
    },
    async rename (actor: Principal, tenantId: number, id: number, name: string) {
      const org = await tenant(actor, tenantId)
      return one(promptViews(org.prefix, [found(await repo.renamePrompt(tenantId, id, name), 'Prompt')]))
    },
    async remove (actor: Principal, tenantId: number, id: number) {
      await tenant(actor, tenantId)
      await unused(tenantId, 'prompt', id)
      if (!await repo.removePrompt(tenantId, id)) throw new NotFoundError('Prompt') // a prompt a menu, a queue or a line plays is 409
    },
    /** keeps a recording of the prompt in a language, converted from the file uploaded to what Asterisk plays */
    async upload (actor: Principal, tenantId: number, id: number, language: 'ru' | 'kk', file: Buffer) {
      const org = await tenant(actor, tenantId)
      const prompt = found(await repo.prompt(tenantId, id), 'Prompt')
      let converted
      try {
        converted = await converter.convert(file)
      } catch (err) {
        if (err instanceof AudioError || err instanceof WavError) {
          const ctx = err instanceof AudioError ? err.ctx : err.found && { found: err.found }
          throw new RequestValidationError([{ type: err.problem, loc: ['body'], msg: err.message, ...(ctx ? { ctx } : {}) }])
        }
        throw err
      }
      const { wav, sampleRate, durationMs, source, gainDb } = converted
      await repo.saveRecording({ prompt_id: id, language, sample_rate: sampleRate, duration_ms: durationMs, size_bytes: wav.length, wav, source: { ...source, gain_db: gainDb } })
      return one(promptViews(org.prefix, [prompt]))
    },
    async recording (actor: Principal, tenantId: number, id: number, language: 'ru' | 'kk') {
      await tenant(actor, tenantId)
      found(await repo.prompt(tenantId, id), 'Prompt')
      return found(await repo.recording(id, language), 'Recording')
    },
    async removeRecording (actor: Principal, tenantId: number, id: number, language: 'ru' | 'kk') {
      await tenant(actor, tenantId)
      found(await repo.prompt(tenantId, id), 'Prompt')
      if (!await repo.removeRecording(id, language)) throw new NotFoundError('Recording')
    },
  }
}
