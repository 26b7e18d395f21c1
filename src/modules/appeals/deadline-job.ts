import type { Transactional } from '../../db/client.js'
import type { Clock } from '../../lib/clock.js'
import { managerNotices } from './notices.js'
import type { AppealRepo, AppealTxRepo, Deadline } from './repo.js'
import type { AppealLiveEvent } from './service.js'

const BATCH = 500

export interface DeadlineJobDeps {
  repo: AppealRepo
  transaction: Transactional<AppealTxRepo>
  clock: Clock
  /** the centre's zone, for the dates in the managers' mails */
  timeZone: string
  /** wakes the notification worker: breach mails are in the outbox */
  notify: () => void
  publish: (event: AppealLiveEvent) => Promise<void>
  /** the longest wait between two looks; the job also wakes at the next deadline */
  intervalMs: number
  log: { info: (o: object, m: string) => void, error: (o: object, m: string) => void }
}

/**
 * Marks appeals overdue when they pass a deadline (DESIGN 7.3): the history row, the live event and a
 * mail to the executor's managers through the outbox, once per breach however many instances run the job.
 */
export function createDeadlineJob (deps: DeadlineJobDeps) {
  const { repo, transaction, clock, log } = deps
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let stopped = true

  async function markOne (deadline: Deadline): Promise<number> {
    const now = clock()
    const marked = await transaction(async (tx) => {
      const rows = await tx.markOverdue(deadline, now, BATCH)
      await tx.addEvents(rows.map((r) => ({
        appeal_id: r.id, at: now, actor_id: null, action: 'overdue' as const, from_status: r.status, to_status: r.status, payload: { deadline, due_at: r.due_at.toISOString() },
      })))
      // the managers' mails commit with the marks: once per breach, never lost
      const managers = new Map<number, string[]>()
      for (const r of rows) {
        const organizationId = r.executor_organization_id
        if (organizationId === null) continue
        if (!managers.has(organizationId)) managers.set(organizationId, await tx.managerEmails(organizationId))
        await tx.enqueue(managerNotices(r, { kind: 'overdue', deadline, dueAt: r.due_at }, managers.get(organizationId)!, deps.timeZone), now)
      }
      return rows
    })
    if (marked.length > 0) deps.notify()
    for (const r of marked) {
      await deps.publish({ type: 'appeal.overdue', organization_id: r.executor_organization_id, appeal_id: r.id, number: r.number, status: r.status })
    }
    return marked.length
  }

  /** marks every passed deadline; returns how many breaches it marked */
  async function runOnce (): Promise<number> {
    let total = 0
    for (const deadline of ['work', 'close'] as const) {
      for (let n = BATCH; n === BATCH;) { n = await markOne(deadline); total += n }
    }
    if (total > 0) log.info({ marked: total }, 'appeals passed a deadline')
    return total
  }

  /** when the timer fires next (Infinity while a look is under way) */
  let wakeAt = Infinity

  function schedule (delayMs: number) {
    if (stopped) return
    clearTimeout(timer)
    const delay = Math.max(0, Math.min(delayMs, deps.intervalMs))
    wakeAt = clock().getTime() + delay
    timer = setTimeout(tick, delay)
    timer.unref()
  }

  function tick () {
    wakeAt = Infinity
    running = (async () => {
      try {
        await runOnce()
        const next = await repo.nextDeadline()
        schedule(next ? next.getTime() - clock().getTime() + 50 : deps.intervalMs)
      } catch (err) {
        log.error({ err }, 'deadline job failed')
        schedule(deps.intervalMs)
      }
    })()
  }

  return {
    runOnce,
    start () { stopped = false; tick() },
    /** a deadline was set (an appeal registered or extended): wakes earlier if it comes before the next look */
    poke (dueAt: Date) {
      if (stopped) return
      const delay = dueAt.getTime() - clock().getTime() + 50
      if (clock().getTime() + delay < wakeAt) schedule(delay)
    },
    async stop () {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the deadline job of this instance (tests and operators may run it at once) */
    appealDeadlines: Pick<ReturnType<typeof createDeadlineJob>, 'runOnce'>
  }
}
