import { asc, eq } from 'drizzle-orm'
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
