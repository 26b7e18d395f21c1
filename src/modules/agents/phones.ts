import type { AppDb } from '../../db/client.js'
import type { Principal } from '../../lib/auth.js'
import { browserPhonesOf, renewBrowserKeys } from '../endpoints/queries.js'
import type { MyPhones } from './schemas.js'

/**
 * The browser phones of the signed-in employee (DESIGN 11): the keys their browser registers with,
 * given to that employee's own session only, and renewed at their sign-out, so that a key copied from
 * a browser is void once the PBX is applied.
 */
export function createMyPhones ({ db, websocketUrl }: { db: AppDb, websocketUrl?: string }) {
  const host = websocketUrl === undefined ? undefined : new URL(websocketUrl).hostname
  return {
    async mine (actor: Principal): Promise<MyPhones> {
      const phones = await browserPhonesOf(db, actor.id)
      return {
        websocket_url: websocketUrl ?? null,
        phones: phones.map((p) => ({ ...p, sip_uri: `sip:${p.terminal_id}@${host ?? 'localhost'}` })),
      }
    },
    signOut: (actor: Principal) => renewBrowserKeys(db, { employeeId: actor.id }),
  }
}

export type MyPhonesService = ReturnType<typeof createMyPhones>
