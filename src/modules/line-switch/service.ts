import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { supervisorScope } from '../../lib/access.js'
import type { Principal } from '../../lib/auth.js'
import type { Clock } from '../../lib/clock.js'
import { askAsterisk } from '../../integrations/ami/ask.js'
import { NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { manageableTenant } from '../../lib/tenant.js'
import { promptSound } from '../../integrations/asterisk/names.js'
import { LINE_SWITCH_FAMILY } from '../../integrations/asterisk/names.js'
import type { LineSwitchRepo, SwitchRow } from './repo.js'
import type { LineCloseRequest, LineSwitchState } from './schemas.js'

/** what the switch asks of Asterisk's database */
type AstDb = Pick<PbxControl, 'dbPut' | 'dbDel' | 'dbFamily'>

/** "until opened again" as the dialplan compares it with ${EPOCH}: 2100-01-01 */
const UNTIL_OPENED = 4_102_444_800
const HISTORY = 50
const NO_AMI = 'Asterisk Manager Interface is not configured: a line is closed in Asterisk itself (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

type LineRow = Awaited<ReturnType<LineSwitchRepo['lines']>>[number]

/** whether a line's latest switch has it closed at `now` */
const closedAt = (s: SwitchRow | undefined, now: Date) => s?.action === 'close' && (s.until === null || s.until > now)
const who = (s: SwitchRow) => (s.user_id === null ? null : { id: s.user_id, name: s.user_name ?? '' })

/** what Asterisk's database holds for a closed line: `<until epoch>:<sound>` */
export const switchValue = (prefix: string, s: Pick<SwitchRow, 'until' | 'prompt_id'>) =>
  `${s.until === null ? UNTIL_OPENED : Math.floor(s.until.getTime() / 1000)}:${s.prompt_id === null ? '' : promptSound(prefix, s.prompt_id)}`

/** A line closed at a switch (issue 49): now, with its own announcement, until a time or until opened; in Asterisk on the next call. */
export function createLineSwitchService ({ repo, control, clock }: { repo: LineSwitchRepo, control?: AstDb, clock: Clock }) {
  const tenant = (actor: Principal, tenantId: number) => manageableTenant(actor, tenantId, repo.organization, 'its lines')
  const state = (l: LineRow, now: Date): LineSwitchState => {
    const s = l.latest
    const closed = closedAt(s, now)
    return {
      line_id: l.id, tenant_id: l.organization_id, number: l.number, name: l.name, closed,
      reason: closed ? s!.reason : null, until: closed && s!.until ? s!.until.toISOString() : null, prompt_id: closed ? s!.prompt_id : null,
      by: s ? who(s) : null, at: s ? s.at.toISOString() : null,
    }
  }
  async function stateOf (tenantId: number, lineId: number): Promise<LineSwitchState> {
    const [line] = await repo.lines(tenantId, lineId)
    if (!line) throw new NotFoundError('Line')
    return state(line, clock())
  }
  /** the change made in Asterisk first: what it did not take is not recorded either (503) */
  const inAsterisk = (change: (c: AstDb) => Promise<void>) => askAsterisk(control, change, { unconfigured: NO_AMI, failed: 'Asterisk did not take the change' })

  /**
   * A switch: Asterisk's database changed, then its history row, one switch of a line at a time
   * across the instances (a close and an open at once would otherwise leave the two apart). Asterisk
   * refusing records nothing (503); a row that cannot be written puts Asterisk back as the history says.
   */
  const switched = (line: { id: number, number: string }, change: (c: AstDb) => Promise<void>, row: Parameters<LineSwitchRepo['insert']>[0]) =>
    repo.exclusively(line.id, async () => {
      await inAsterisk(change)
      await repo.insert(row).catch(async (err: unknown) => {
        await reconcileLine(line.id).catch(() => {})
        throw err
      })
    })

  /** Asterisk's key of one line made to say what its latest switch says */
  async function reconcileLine (lineId: number, inDb?: Map<string, string>): Promise<void> {
    const [l] = await repo.lines(undefined, lineId)
    if (!l || !control) return
    const keys = inDb ?? await control.dbFamily(LINE_SWITCH_FAMILY)
    const value = closedAt(l.latest, clock()) ? switchValue(l.prefix, l.latest!) : undefined
    if (value !== undefined && keys.get(l.number) !== value) await control.dbPut(LINE_SWITCH_FAMILY, l.number, value)
    if (value === undefined && keys.has(l.number)) await control.dbDel(LINE_SWITCH_FAMILY, l.number)
  }

  return {
    async list (actor: Principal, tenantId: number) {
      await tenant(actor, tenantId)
      const now = clock()
      return (await repo.lines(tenantId)).map((l) => state(l, now))
    },
    /** the lines closed now that a supervisor sees (an admin: every organization's; a manager: its own) */
    async closed (actor: Principal) {
      const scope = supervisorScope(actor, 'the lines\' switches')
      const now = clock()
      return (await repo.lines(scope.organizationId)).map((l) => state(l, now)).filter((s) => s.closed)
    },
    async history (actor: Principal, tenantId: number, lineId: number) {
      await tenant(actor, tenantId)
      if (!await repo.line(tenantId, lineId)) throw new NotFoundError('Line')
      return (await repo.history(lineId, HISTORY)).map((s) => ({ id: s.id, action: s.action, reason: s.reason, until: s.until?.toISOString() ?? null, prompt_id: s.prompt_id, by: who(s), at: s.at.toISOString() }))
    },
    async close (actor: Principal, tenantId: number, lineId: number, input: LineCloseRequest) {
      const organization = await tenant(actor, tenantId)
      const line = await repo.line(tenantId, lineId)
      if (!line) throw new NotFoundError('Line')
      const until = input.until ? new Date(input.until) : null
      if (until && until <= clock()) throw RequestValidationError.field(['body', 'until'], 'Must be in the future', input.until)
      const promptId = input.prompt_id ?? null
      if (promptId !== null && !await repo.promptRecorded(tenantId, promptId)) {
        throw RequestValidationError.field(['body', 'prompt_id'], `Prompt ${promptId} is not a prompt of this organization with a recording`, promptId)
      }
      await switched(line, (c) => c.dbPut(LINE_SWITCH_FAMILY, line.number, switchValue(organization.prefix, { until, prompt_id: promptId })),
        { organization_id: tenantId, line_id: lineId, action: 'close', reason: input.reason, until, prompt_id: promptId, user_id: actor.id })
      return stateOf(tenantId, lineId)
    },
    async open (actor: Principal, tenantId: number, lineId: number) {
      await tenant(actor, tenantId)
      const line = await repo.line(tenantId, lineId)
      if (!line) throw new NotFoundError('Line')
      // a key that is not there is not deleted: Asterisk would log a WARNING for it
      await switched(line, async (c) => { if ((await c.dbFamily(LINE_SWITCH_FAMILY)).has(line.number)) await c.dbDel(LINE_SWITCH_FAMILY, line.number) },
        { organization_id: tenantId, line_id: lineId, action: 'open', user_id: actor.id })
      return stateOf(tenantId, lineId)
    },
    /** Asterisk's database made to say what the service does of every line (after a generation, a new Asterisk) */
    async reconcile () {
      if (!control) return
      const inDb = await control.dbFamily(LINE_SWITCH_FAMILY)
      const lines = await repo.lines()
      // each line under its lock, from its latest switch read then: a switch made meanwhile is not undone
      for (const l of lines) await repo.exclusively(l.id, () => reconcileLine(l.id, inDb))
      // a number no line has any more closes nothing: its key goes too
      const numbers = new Set(lines.map((l) => l.number))
      for (const key of inDb.keys()) if (!numbers.has(key)) await control.dbDel(LINE_SWITCH_FAMILY, key)
    },
  }
}

export type LineSwitchService = ReturnType<typeof createLineSwitchService>
