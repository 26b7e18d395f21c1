// `npm run bench`: every benchmark of the project, on the embedded database, or on PostgreSQL with
// BENCH_DATABASE_URL. BENCH_SECONDS and BENCH_CONNECTIONS tune the load.
import { benchAppeals } from './appeals.js'
import { benchCallEvents } from './call-events.js'
import { benchConsole } from './console.js'
import { benchHotPaths } from './hot-paths.js'
import { benchInvalidation } from './invalidation.js'
import { benchLine } from './line.js'
import { benchLlm } from './llm.js'
import { benchOrganizations } from './organizations.js'
import { benchPersons } from './persons.js'
import { benchAudit } from './audit.js'
import { benchCallbacks, benchCalls } from './calls.js'
import { benchRecordings } from './recordings.js'
import { benchStartup } from './startup.js'
import { benchReferenceData } from './reference-data.js'
import { benchTelephony } from './telephony.js'

const suites: Record<string, () => Promise<void>> = { 'reference-data': benchReferenceData, organizations: benchOrganizations, telephony: benchTelephony, 'call-events': benchCallEvents, llm: benchLlm, appeals: benchAppeals, console: benchConsole, 'hot-paths': benchHotPaths, persons: benchPersons, invalidation: benchInvalidation, line: benchLine, audit: benchAudit, recordings: benchRecordings, startup: benchStartup, calls: async () => { await benchCalls(); await benchCallbacks() } }
const only = process.argv[2]
for (const [name, suite] of Object.entries(suites)) {
  if (only && only !== name) continue
  await suite()
}
