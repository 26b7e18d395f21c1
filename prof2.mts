import { benchDatabase, startService, load } from './bench/harness.js'
import { seedReferenceData } from './src/db/seed/index.js'
const database = await benchDatabase()
await seedReferenceData(database.db)
const s = await startService(database)
for (const path of ['/', '/api/references/sources', '/', '/api/references/sources', '/api/shared/groups']) {
  const r = await load(`${s.url}${path}`, {}, { connections: 64, seconds: 3 })
  console.log(path, Math.round(r.rps), r.p99)
}
await s.app.close(); await database.close()
