import { asc, eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { AppDb } from '../../src/db/client.js'
import { appealTypes, categories, classifiers, regions, responseMethods, sources, subcategories } from '../../src/db/schema/index.js'
import { seedReferenceData } from '../../src/db/seed/index.js'
import { login, makeOrganization, makeUser } from './factories.js'

/**
 * A centre and two executor organizations with their people signed in, the reference seed, and a
 * category with two subcategories: what a test of the register needs before its first appeal.
 */
export async function appealFixture (app: FastifyInstance, db: AppDb) {
  await seedReferenceData(db)
  const centre = await makeOrganization(db, { modules: ['call_center'] })
  const executor = await makeOrganization(db, { name: 'Акимат района' })
  const other = await makeOrganization(db)
  const managerUser = await makeUser(db, { role: 'manager', organization_id: executor.id })
  const otherManagerUser = await makeUser(db, { role: 'manager', organization_id: other.id })
  const people = {
    admin: await login(app, await makeUser(db, { role: 'admin' })),
    operator: await login(app, await makeUser(db, { role: 'operator', organization_id: centre.id })),
    executorOperator: await login(app, await makeUser(db, { role: 'operator', organization_id: executor.id })),
    executorManager: await login(app, managerUser),
    otherManager: await login(app, otherManagerUser),
  }
  const [source] = await db.select().from(sources).orderBy(asc(sources.id)).limit(1)
  const method = async (channel: 'email' | 'sms' | null) =>
    (await db.select().from(responseMethods).orderBy(asc(responseMethods.id))).find((m) => m.channel === channel)!.id
  const [oblast] = await db.select().from(regions).where(eq(regions.name, 'Алматинская область'))
  const [classifier] = await db.select().from(classifiers).limit(1)
  const [type] = await db.select().from(appealTypes).where(eq(appealTypes.classifier_id, classifier!.id)).limit(1)
  const [category] = await db.insert(categories).values({ appeal_type_id: type!.id, name: 'Коммунальные услуги' }).returning()
  const sub = async (name: string) => (await db.insert(subcategories).values({ category_id: category!.id, name, priority: 3, time_to_work: 2, time_to_close: 18 }).returning())[0]!.id
  return {
    centre,
    executor,
    other,
    managerEmail: managerUser.email,
    otherManagerEmail: otherManagerUser.email,
    people,
    ids: {
      source: source!.id,
      methods: { email: await method('email'), sms: await method('sms'), call: await method(null) },
      region: oblast!.id,
      classifier: classifier!.id,
      appealType: type!.id,
      category: category!.id,
      heating: await sub('Отопление'),
      water: await sub('Водоснабжение'),
    },
  }
}

export type AppealFixture = Awaited<ReturnType<typeof appealFixture>>

export interface SyntheticRefs {
  source: number
  method: number
  classifier: number
  appealType: number
  category: number
  subcategories: number[]
  regions: number[]
  executors: number[]
}

/**
 * `count` appeals written by one INSERT ... SELECT (numbers `109-<year>-NNNNNN` from `first`), spread
 * over the `days` before `until` and over the given regions, executors and subcategories, in every
 * state: the volume of a register for exports and benchmarks, without the registration path.
 */
export async function insertSyntheticAppeals (db: AppDb, refs: SyntheticRefs, options: { count: number, until: Date, days: number, year?: number, first?: number }) {
  const { count, until, days } = options
  const first = options.first ?? 1
  const pick = (ids: number[], g: string) => `(array[${ids.join(',')}])[1 + (${g} % ${ids.length})]`
  await db.execute(sql.raw(`
    insert into appeals (number, status, received_at, source_id, citizen_name, citizen_phone, language, text, subcategory_id, category_id, appeal_type_id, classifier_id,
      priority, region_id, response_method_id, executor_organization_id, work_due_at, close_due_at, work_overdue_at, close_overdue_at, answered_at, closed_at, answer_text)
    select '109-${options.year ?? until.getUTCFullYear()}-' || lpad(g::text, greatest(6, length(g::text)), '0'),
      st, at, ${refs.source}, 'Гражданин ' || g, '+7701' || lpad((g % 10000000)::text, 7, '0'), case when g % 3 = 0 then 'kk' else 'ru' end,
      'Обращение номер ' || g || ': нет отопления, просим принять меры', ${pick(refs.subcategories, 'g')}, ${refs.category}, ${refs.appealType}, ${refs.classifier},
      3, ${pick(refs.regions, 'g / 7')}, ${refs.method}, case when st = 'registered' then null else ${pick(refs.executors, 'g / 3')} end,
      work_due, close_due,
      -- a passed deadline of an open appeal is marked, as the deadline job would have
      case when st in ('registered', 'assigned') and work_due < now() then work_due end,
      case when st in ('registered', 'assigned', 'in_work') and close_due < now() then close_due end,
      case when st in ('answered', 'closed') then at + ((g % 20) || ' days')::interval end,
      case when st = 'closed' then at + ((g % 20) || ' days')::interval + interval '1 hour' end,
      case when st in ('answered', 'closed') then 'Ответ' end
    from (select g, at, at + interval '2 hours' as work_due, at + interval '15 days' as close_due,
            (array['registered','assigned','in_work','answered','closed','closed'])[1 + g % 6] as st
          from (select g, timestamptz '${until.toISOString()}' - ((g::float8 / ${count + first}) * ${days}) * interval '1 day' as at
                from generate_series(${first}, ${first + count - 1}) g) t) s`))
}
