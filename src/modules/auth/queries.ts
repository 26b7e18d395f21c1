import type { AppDb } from '../../db/client.js'
import { serviceSettings } from '../../db/schema/index.js'

/* What other parts may ask of the service's settings (their owner is this module). */

/** keeps `value` under `key` unless the key is set already: true when this call set it (once per database) */
export async function claimSetting (db: AppDb, key: string, value: string): Promise<boolean> {
  return (await db.insert(serviceSettings).values({ key, value }).onConflictDoNothing().returning({ key: serviceSettings.key })).length > 0
}
