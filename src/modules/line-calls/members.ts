import type { FastifyBaseLogger } from 'fastify'
import type { QueueMemberState } from '../../integrations/ami/queue-control.js'
import type { AmiMessage } from '../../integrations/ami/protocol.js'
import type { Clock } from '../../lib/clock.js'
import { createMemberTracker, type MemberState } from './member-tracker.js'

/**
 * The queue members' states, live (DESIGN 9: Asterisk is the truth): folded from the events on the
 * instance that reads them, each change written (state now, and the period it opens) in the order
 * the events came; a wrap-up ends by its own timer; after each (re)connection the states are taken
 * again from QueueStatus, since events sent while the connection was down are lost.
 */
export function createMemberStates ({ repo, log, clock, changed, before }: {
  /** the leader's write of a state */
  repo: { saveAgentState: (state: MemberState) => Promise<void> }
  log: FastifyBaseLogger
  clock: Clock
  /** waited for before each write (the screen pops go first) */
  before?: () => Promise<void>
  /** told of every change once it is written */
  changed: (state: MemberState) => void
}) {
  let tracker = createMemberTracker()
  let saving: Promise<void> = Promise.resolve()
  const wrapups = new Set<NodeJS.Timeout>()

  function write (state: MemberState): void {
    const snapshot = { ...state }
    saving = saving.then(async () => { await before?.(); await repo.saveAgentState(snapshot); changed(snapshot) })
      .catch((err: unknown) => { log.warn({ err, member: snapshot.interface }, 'a queue member\'s state could not be saved') })
    if (state.state === 'wrap_up' && state.wrapup_until) endWrapupAt(state.wrapup_until)
  }

  function endWrapupAt (until: Date): void {
    const timer = setTimeout(() => {
      wrapups.delete(timer)
      for (const s of tracker.tick(clock())) write(s)
    }, Math.max(0, until.getTime() - clock().getTime()) + 10)
    timer.unref()
    wrapups.add(timer)
  }

  function endWrapups (): void {
    for (const t of wrapups) clearTimeout(t)
    wrapups.clear()
  }

  return {
    apply (message: AmiMessage, at: Date, wrapupSeconds: number): void {
      const state = tracker.apply(message, at, wrapupSeconds)
      if (state) write(state)
    },
    /** the members as QueueStatus gives them now */
    reconcile (members: QueueMemberState[]): void {
      for (const s of tracker.reconcile(members, clock())) write(s)
    },
    settled: () => saving,
    stop: endWrapups,
    /** nothing known any more (the lead lost: the next leader's states are Asterisk's, read anew) */
    reset (): void {
      endWrapups()
      tracker = createMemberTracker()
    },
  }
}

export type MemberStates = ReturnType<typeof createMemberStates>
