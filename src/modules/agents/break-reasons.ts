import { asc, eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { breakReasons } from '../../db/schema/index.js'
import { ConflictError, NotFoundError, RequestValidationError } from '../../lib/errors.js'
import { OFFLINE_PAUSE_REASON as OFFLINE } from '../../integrations/asterisk/names.js'
import type { BreakReasonCreate, BreakReasonUpdate } from './schemas.js'

/** the reason of a break chosen without one: it stays on the list */
export const DEFAULT_REASON = 'break'

export type BreakReasonRow = typeof breakReasons.$inferSelect

const view = ({ created_at: _created, ...reason }: BreakReasonRow) => reason

/** the administrator's list of break reasons: read by every desk, kept by the administrators */
export function createBreakReasons (db: AppDb) {
  const list = () => db.select().from(breakReasons).orderBy(asc(breakReasons.sort_order), asc(breakReasons.code))
  const one = async (code: string) => (await db.select().from(breakReasons).where(eq(breakReasons.code, code)))[0]
  return {
    list: async () => (await list()).map(view),
    /** a reason an operator may choose: on the list (422 on `reason` naming the list otherwise) */
    async check (code: string): Promise<void> {
      if (await one(code)) return
      const known = (await list()).map((r) => r.code)
      throw RequestValidationError.field(['body', 'reason'], `Not a break reason of the list: ${known.join(', ')}`, code, 'unknown_reason')
    },
    async create (input: BreakReasonCreate) {
      if (input.code === OFFLINE) throw RequestValidationError.field(['body', 'code'], 'offline is the service\'s own reason for a closed console', input.code)
      const [created] = await db.insert(breakReasons).values(input).onConflictDoNothing().returning()
      if (!created) throw new ConflictError(`code '${input.code}' already exists`, 'duplicate')
      return view(created)
    },
    async update (code: string, input: BreakReasonUpdate) {
      const [updated] = Object.keys(input).length === 0 ? [await one(code)] : await db.update(breakReasons).set(input).where(eq(breakReasons.code, code)).returning()
      if (!updated) throw new NotFoundError('Break reason')
      return view(updated)
    },
    async remove (code: string) {
      if (code === DEFAULT_REASON) throw new ConflictError('The default reason of a break stays on the list', 'default_reason')
      if ((await db.delete(breakReasons).where(eq(breakReasons.code, code)).returning()).length === 0) throw new NotFoundError('Break reason')
    },
  }
}

export type BreakReasons = ReturnType<typeof createBreakReasons>
