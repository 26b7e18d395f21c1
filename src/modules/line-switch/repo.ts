import { and, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client.js'
import { lineSwitches } from '../../db/schema/index.js'
import { lineDirectory, lineOf, promptRecorded } from '../call-routing/queries.js'
import { employeeNames } from '../employees/queries.js'
import { organizationPrefix, organizationWithTenant } from '../organizations/queries.js'

export type SwitchRow = typeof lineSwitches.$inferSelect & { user_name: string | null }

// Any constant: the same for every instance of the service.
const SWITCH_LOCK = 7_351_049

export function createLineSwitchRepo (database: Database) {
  const db = database.db
  const withNames = () => {
    const employee = employeeNames(db)
    return db.select({ row: lineSwitches, last_name: employee.last_name, first_name: employee.first_name }).from(lineSwitches).leftJoin(employee, eq(employee.id, lineSwitches.user_id))
  }
  const named = (r: { row: typeof lineSwitches.$inferSelect, last_name: string | null, first_name: string | null }): SwitchRow =>
    ({ ...r.row, user_name: r.last_name === null ? null : `${r.last_name} ${r.first_name ?? ''}`.trim() })
  return {
    organization: (id: number) => organizationWithTenant(db, id),
    line: (organizationId: number, lineId: number) => lineOf(db, organizationId, lineId),
    promptRecorded: (organizationId: number, promptId: number) => promptRecorded(db, organizationId, promptId),
    /** the lines of one organization (or of all; or the one line), each with its latest switch if it has one */
    async lines (organizationId?: number, lineId?: number) {
      const line = lineDirectory(db)
      const latest = db.selectDistinctOn([lineSwitches.line_id], { id: lineSwitches.id, line_id: lineSwitches.line_id }).from(lineSwitches)
        .where(and(organizationId === undefined ? undefined : eq(lineSwitches.organization_id, organizationId), lineId === undefined ? undefined : eq(lineSwitches.line_id, lineId)))
        .orderBy(lineSwitches.line_id, desc(lineSwitches.id)).as('latest')
      const lines = await db.select({ id: line.id, number: line.number, name: line.name, organization_id: line.organization_id, prefix: organizationPrefix(line.organization_id), switch_id: latest.id })
        .from(line).leftJoin(latest, eq(latest.line_id, line.id))
        .where(and(organizationId === undefined ? undefined : eq(line.organization_id, organizationId), lineId === undefined ? undefined : eq(line.id, lineId))).orderBy(line.number)
      const ids = lines.flatMap((l) => (l.switch_id === null ? [] : [l.switch_id]))
      const switches = ids.length === 0 ? [] : (await withNames().where(sql`${lineSwitches.id} in ${ids}`)).map(named)
      const byId = new Map(switches.map((s) => [s.id, s]))
      return lines.map((l) => ({ ...l, latest: l.switch_id === null ? undefined : byId.get(l.switch_id) }))
    },
    history: async (lineId: number, limit: number) => (await withNames().where(eq(lineSwitches.line_id, lineId)).orderBy(desc(lineSwitches.id)).limit(limit)).map(named),
    /** `work` while no other instance switches the line */
    exclusively: <T>(lineId: number, work: () => Promise<T>) => database.exclusively(SWITCH_LOCK, lineId, work),
    insert: async (values: typeof lineSwitches.$inferInsert) => { await db.insert(lineSwitches).values(values) },
  }
}

export type LineSwitchRepo = ReturnType<typeof createLineSwitchRepo>
