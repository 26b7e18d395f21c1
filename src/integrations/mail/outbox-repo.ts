import { desc, eq } from 'drizzle-orm'
import type { AppDb } from '../../db/client.js'
import { mailOutbox } from '../../db/schema/index.js'
import type { MailMessage } from './types.js'

export function createMailOutboxRepo (db: AppDb) {
  return {
    store: async (m: MailMessage): Promise<number> =>
      (await db.insert(mailOutbox).values({ recipient: m.to, subject: m.subject, body: m.text }).returning({ id: mailOutbox.id }))[0]!.id,
    latestFor: async (recipient: string) =>
      (await db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient)).orderBy(desc(mailOutbox.id)).limit(1))[0],
  }
}
