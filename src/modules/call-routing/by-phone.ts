import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import { field as amiField, type AmiMessage } from '../../integrations/ami/protocol.js'
import { PROMPT_BY_PHONE_LANGUAGES, PROMPT_DRAFT_NAME, PROMPT_DRAFTS_DIR, PROMPT_RECORDED_EVENT } from '../../integrations/asterisk/names.js'
import { AudioError, type PromptConverter } from './prompt-audio.js'
import type { CallRoutingRepo } from './repo.js'

/** a recording by phone left unkept (hung up while listening back) goes after this long */
const ABANDONED_AFTER_MS = 24 * 3600_000

export type PromptByPhoneOutcome = 'kept' | 'refused' | 'unreadable'

/**
 * Prompts recorded by phone (the dialplan of `../pbx/prompt-by-phone.ts`): Asterisk records into
 * RECORDINGS_DIR/prompts/ and says so with `UserEvent AppealsPromptRecorded`, which the instance
 * reading Asterisk's events hands here. The file is taken only when its name is what the dialplan
 * writes, the terminal's employee may edit the organization's routing now (the dialplan's list of
 * terminals may be older) and the prompt is the organization's; it is then converted as an upload
 * is, kept on the prompt in the language chosen, and removed from the shared directory either way.
 */
export function createPromptsByPhone ({ repo, converter, recordingsDir, log, now = Date.now }: {
  repo: Pick<CallRoutingRepo, 'organizationIdByPrefix' | 'routingEditorAt' | 'prompt' | 'saveRecording'>
  converter: PromptConverter, recordingsDir: string, log: FastifyBaseLogger, now?: () => number
}) {
  const drafts = join(recordingsDir, PROMPT_DRAFTS_DIR)
  const field = (m: AmiMessage, name: string) => amiField(m, name)?.trim() ?? ''

  async function take (message: AmiMessage): Promise<PromptByPhoneOutcome> {
    const name = basename(field(message, 'File'))
    const draft = PROMPT_DRAFT_NAME.exec(name)
    const [prefix, promptId, digit, terminal] = [field(message, 'Organization'), field(message, 'Prompt'), field(message, 'PromptLanguage'), field(message, 'Terminal')]
    // only a name the dialplan writes, agreeing with the event, is read from the shared directory
    if (!draft || draft[1] !== prefix || draft[2] !== promptId || draft[3] !== digit) {
      log.warn({ file: name, prefix, promptId }, 'prompt by phone: the event names no recording of the dialplan\'s; ignored')
      return 'refused'
    }
    // the recording goes from the shared directory whatever becomes of it
    const path = join(drafts, name)
    try {
      return await keep(path, prefix, Number(promptId), Number(digit) as 1 | 2, terminal)
    } catch (err) {
      if (!(err instanceof AudioError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      log.warn({ err, file: name }, 'prompt by phone: the recording could not be read')
      return 'unreadable'
    } finally {
      await rm(path, { force: true })
    }
  }

  async function keep (path: string, prefix: string, promptId: number, digit: 1 | 2, terminal: string): Promise<PromptByPhoneOutcome> {
    const organizationId = await repo.organizationIdByPrefix(prefix)
    const editor = organizationId === undefined ? undefined : await repo.routingEditorAt(organizationId, terminal)
    const prompt = organizationId === undefined ? undefined : await repo.prompt(organizationId, promptId)
    if (!editor?.allowed || !prompt) {
      log.warn({ prefix, terminal, promptId }, 'prompt by phone: refused (no such prompt, or the terminal\'s employee may not edit the organization\'s routing)')
      return 'refused'
    }
    const converted = await converter.convert(await readFile(path), { wait: true })
    const language = PROMPT_BY_PHONE_LANGUAGES[digit]
    await repo.saveRecording({
      prompt_id: prompt.id, language, sample_rate: converted.sampleRate, duration_ms: converted.durationMs, size_bytes: converted.wav.length, wav: converted.wav,
      source: { ...converted.source, format: 'phone', gain_db: converted.gainDb, terminal, employee_id: editor.employee_id },
    })
    log.info({ prefix, prompt: prompt.id, language, terminal, employee: editor.employee_id, ms: converted.durationMs }, 'prompt by phone: kept')
    return 'kept'
  }

  /** recordings never kept (the caller hung up while listening back) */
  async function sweep (): Promise<void> {
    const names = await readdir(drafts).catch(() => [] as string[])
    for (const name of names.filter((n) => PROMPT_DRAFT_NAME.test(n))) {
      const { mtimeMs } = await stat(join(drafts, name)).catch(() => ({ mtimeMs: now() }))
      if (now() - mtimeMs > ABANDONED_AFTER_MS) await rm(join(drafts, name), { force: true })
    }
  }

  return {
    /** an AMI event of the dialplan: a prompt recorded and kept by phone (anything else is not for it) */
    async event (message: AmiMessage): Promise<PromptByPhoneOutcome | undefined> {
      if (field(message, 'Event') !== 'UserEvent' || field(message, 'UserEvent') !== PROMPT_RECORDED_EVENT) return undefined
      const outcome = await take(message)
      await sweep()
      return outcome
    },
  }
}

export type PromptsByPhone = ReturnType<typeof createPromptsByPhone>
