import type { FastifyBaseLogger } from 'fastify'
import { transactional, type AppDb } from '../../db/client.js'
import { createFfmpegDecoder, type AudioDecoder } from '../../integrations/audio/index.js'
import type { ServiceModule } from '../../lib/module.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import { PROMPT_RECORDED_EVENT } from '../../integrations/asterisk/names.js'
import { createPromptsByPhone } from './by-phone.js'
import { createPromptConverter } from './prompt-audio.js'
import { changesReferences, withReferences } from '../../lib/reference-cache.js'
import { createCallRoutingRepo } from './repo.js'
import routes from './routes.js'
import { createCallRoutingService } from './service.js'

/** what other modules give the routing: Asterisk's events (the instance that reads them) */
export interface CallRoutingPort { dialplanEvent: (message: AmiMessage) => void }

/** how a citizen's call goes through an organization: queues, inbound lines, menus, schedules, prompts (DESIGN 9) */
export function createCallRoutingModule (deps: { db: AppDb, decoder?: AudioDecoder, audio: { conversions: number, decodeTimeoutMs: number }, recordingsDir: string, log: FastifyBaseLogger }): ServiceModule<CallRoutingPort> {
  const repo = createCallRoutingRepo(deps.db)
  const converter = createPromptConverter(deps.decoder ?? createFfmpegDecoder({ timeoutMs: deps.audio.decodeTimeoutMs }), deps.audio.conversions)
  const service = createCallRoutingService({ repo, transaction: transactional(deps.db, createCallRoutingRepo), converter })
  const byPhone = createPromptsByPhone({ repo, converter, recordingsDir: deps.recordingsDir, log: deps.log })
  return {
    port: {
      // every event of the PBX passes here: only the dialplan's own word for a prompt costs anything
      dialplanEvent: (message) => {
        if (message.UserEvent !== PROMPT_RECORDED_EVENT) return
        byPhone.event(message).catch((err: unknown) => deps.log.warn({ err }, 'prompt by phone: not kept'))
      },
    },
    async register (app) {
      // queues are counted in the Shape B list
      await app.register(withReferences(changesReferences('organizations'), async (scope) => {
        await scope.register(routes, { prefix: '/api/organizations/:tenant_id', service })
      }))
    },
  }
}
