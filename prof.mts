import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { benchDatabase, startService, load } from './bench/harness.js'
import { seedReferenceData } from './src/db/seed/index.js'
const database = await benchDatabase()
await seedReferenceData(database.db)
const s = await startService(database)
const url = `${s.url}${process.argv[2] ?? '/api/references/sources'}`
await load(url, {}, { connections: 64, seconds: 3 })
const session = new Session(); session.connect()
await session.post('Profiler.enable'); await session.post('Profiler.start')
const r = await load(url, {}, { connections: 64, seconds: 4 })
const { profile } = await session.post('Profiler.stop')
writeFileSync('/tmp/hot.cpuprofile', JSON.stringify(profile))
console.log(r)
await s.app.close(); await database.close()
