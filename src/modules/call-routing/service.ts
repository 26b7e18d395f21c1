import type { Transactional } from '../../db/client.js'
import { createRoutingContext } from './context.js'
import { createLineService } from './lines.js'
import { createMenuService } from './menus.js'
import type { PromptConverter } from './prompt-audio.js'
import { createPromptService } from './prompts.js'
import { createQueueService } from './queues.js'
import type { CallRoutingRepo, CallRoutingTxRepo } from './repo.js'
import { createScheduleService } from './schedules.js'

/** The recorded prompts and the routes a citizen's call takes: queues, inbound lines, menus, schedules (DESIGN 9). */
export function createCallRoutingService ({ repo, transaction, converter }: { repo: CallRoutingRepo, transaction: Transactional<CallRoutingTxRepo>, converter: PromptConverter }) {
  const context = createRoutingContext({ repo, transaction })
  return {
    queues: createQueueService(context),
    schedules: createScheduleService(context),
    menus: createMenuService(context),
    lines: createLineService(context),
    prompts: createPromptService(context, converter),
  }
}

export type CallRoutingService = ReturnType<typeof createCallRoutingService>
