// `npm run openapi`: writes the OpenAPI document of the current code to openapi.json (committed;
// test/openapi.test.ts fails while the two differ).
import { writeFileSync } from 'node:fs'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createDb } from '../src/db/client.js'

const database = await createDb({})
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database, logger: false, jwtSecret: 'only-used-to-build-the-document' })
await app.ready()
writeFileSync('openapi.json', `${JSON.stringify(app.swagger(), null, 2)}\n`)
await app.close()
await database.close()
process.stdout.write('openapi.json written\n')
