import cors from '@fastify/cors'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config } from './config.js'
import { readableLog, readableLogs } from './lib/log-format.js'
import { STOP_GRACE_MS } from './config/env-schema.js'
import { drainOnClose } from './lib/drain.js'
import type { Database } from './db/client.js'
import { commonSchemas } from './lib/common-schemas.js'
import { registerErrorHandler } from './lib/error-handler.js'
import { acceptEmptyJsonBodies, loggableUrl, registerNotFound, requestId } from './lib/http.js'
import { registerOpenApi } from './lib/openapi.js'
import { installValidators } from './lib/validators.js'
import { serviceVersion } from './lib/version.js'
import { createMailOutboxRepo } from './integrations/mail/outbox-repo.js'
import { createOutboxMailer, createSmtpMailer, type Mailer } from './integrations/mail/index.js'
import { systemClock, type Clock } from './lib/clock.js'
import { createMetrics, metricsListener, type Metrics } from './lib/metrics.js'
import { buildSerializer } from './lib/serializers.js'
import { logContext, traceRequests } from './lib/tracing.js'
import { mountModules, type Running } from './lib/module.js'
import { openAccessWarnings, recordRoutes } from './lib/auth.js'
import { createReferenceCache, REFERENCE_CHANNEL, referenceCachePlugin } from './lib/reference-cache.js'
import { createNotifier, listeningOf } from './db/notify.js'
import { appliedMigrations, shippedMigrations } from './db/migrate.js'
import { createAmiClient } from './integrations/ami/client.js'
import { amiAnswers, amiPbxControl, type PbxControl } from './integrations/ami/pbx-control.js'
import { amiQueueControl, type QueueControl } from './integrations/ami/queue-control.js'
import { amiCallControl } from './integrations/ami/call-control.js'
import type { LlmGateway } from './integrations/llm/gateway.js'
import type { AudioDecoder } from './integrations/audio/index.js'
import { createSmppGateway, type SmsGateway } from './integrations/sms/index.js'
import * as appeals from './modules/appeals/index.js'
import * as audit from './modules/audit/index.js'
import * as recordings from './modules/recordings/index.js'
import * as auth from './modules/auth/index.js'
import * as calendar from './modules/calendar/index.js'
import * as callEvents from './modules/call-events/index.js'
import * as classifiers from './modules/classifiers/index.js'
import * as agentsModule from './modules/agents/index.js'
import * as lineCalls from './modules/line-calls/index.js'
import * as callRouting from './modules/call-routing/index.js'
import * as employees from './modules/employees/index.js'
import * as endpoints from './modules/endpoints/index.js'
import * as trunks from './modules/trunks/index.js'
import * as lineSwitch from './modules/line-switch/index.js'
import * as groups from './modules/groups/index.js'
import * as health from './modules/health/index.js'
import * as llm from './modules/llm/index.js'
import * as notifications from './modules/notifications/index.js'
import * as organizations from './modules/organizations/index.js'
import * as pbx from './modules/pbx/index.js'
import * as placedCalls from './modules/placed-calls/index.js'
import * as platform from './modules/platform/index.js'
import * as references from './modules/references/index.js'
import * as regions from './modules/regions/index.js'
import { createAgentsModule } from './modules/agents/module.js'
import { centreStaffPolicy, createAppealsModule } from './modules/appeals/module.js'
import { createAuditModule } from './modules/audit/module.js'
import { createAuthModule } from './modules/auth/module.js'
import { createCalendarModule } from './modules/calendar/module.js'
import { createCallEventsModule } from './modules/call-events/module.js'
import { createClassifiersModule } from './modules/classifiers/module.js'
import { createConsoleModule } from './modules/console/module.js'
import { createEmployeesModule } from './modules/employees/module.js'
import { createEndpointsModule } from './modules/endpoints/module.js'
import { createGroupsModule } from './modules/groups/module.js'
import { createHealthModule } from './modules/health/module.js'
import { createLlmModule } from './modules/llm/module.js'
import { createNotificationsModule } from './modules/notifications/module.js'
import { createOrganizationsModule } from './modules/organizations/module.js'
import { createPbxModule } from './modules/pbx/module.js'
import { createPlatformModule } from './modules/platform/module.js'
import { createReferencesModule } from './modules/references/module.js'
import { createRegionsModule } from './modules/regions/module.js'

export interface AppDeps {
  config: Config
  database: Database
  /** Fastify logger options; defaults to JSON logs at config.logLevel with secrets redacted */
  logger?: FastifyServerOptions['logger']
  /** the signing key when config.jwtSecret is unset (main.ts keeps a generated one in the database) */
  jwtSecret?: string
  clock?: Clock
  /** defaults to SMTP when SMTP_URL is set, else the mail_outbox table */
  mailer?: Mailer
  /** Asterisk over AMI; absent: reload and status say AMI is not configured */
  pbxControl?: PbxControl
  /** Asterisk's queues over AMI (defaults to the AMI of config.pbx.ami) */
  queueControl?: QueueControl
  /** defaults to the providers of config.llm over HTTP */
  llmGateway?: LlmGateway
  /** defaults to SMPP when SMPP_URL is set, else SMS notifications wait */
  sms?: SmsGateway
  /** the service's figures (a registry of its own); served on METRICS_PORT when set */
  metrics?: Metrics
  /** reads uploaded prompts that are not plain PCM WAV; defaults to ffmpeg on the PATH */
  audioDecoder?: AudioDecoder
}

export const BODY_LIMIT = 1024 * 1024

const frameworkDetails: Record<string, string> = {
  FST_ERR_BAD_URL: 'Invalid URL: the path is not valid percent-encoded UTF-8',
  FST_ERR_MAX_PARAM_LENGTH: 'URI too long: a path parameter has more than 100 characters',
}

/** a path Fastify cannot route (bad percent-encoding, a parameter over 100 characters) still gets a FastAPI body */
function frameworkErrors (err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  reply.code(err.statusCode ?? 400).send({ detail: frameworkDetails[err.code] ?? 'Bad Request' })
}

/** Fields that must never reach a log line. */
const redact = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-service-token"]',
  'password', 'new_password', 'current_password', 'token', 'secret', 'access_token',
  '*.password', '*.new_password', '*.current_password', '*.token', '*.secret', '*.access_token',
]

export function loggerOptions (config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(readableLogs(config.logFormat) ? { stream: readableLog() } : {}),
    redact: { paths: redact, censor: '[redacted]' },
    // the request (for lines a service's code writes while answering it) and the trace, on every line
    mixin: (_fields: object, _level: number, logger: { bindings: () => Record<string, unknown> }) => logContext(() => logger.bindings()),
    // Fastify's request line without the secrets a URL may carry (?token= of WebSocket consoles)
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: loggableUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  }
}

const sharedSchemas: TSchema[] = [...commonSchemas, ...health.schemas, ...auth.schemas, ...employees.schemas, ...classifiers.schemas, ...references.schemas, ...regions.schemas, ...organizations.schemas, ...endpoints.schemas, ...trunks.schemas, ...lineSwitch.schemas, ...callRouting.callRoutingSchemas, ...agentsModule.schemas, ...lineCalls.schemas, ...pbx.schemas, ...placedCalls.schemas, ...callEvents.schemas, ...llm.schemas, ...platform.schemas, ...groups.schemas, ...calendar.schemas, ...appeals.schemas, ...notifications.schemas, ...audit.schemas, ...recordings.schemas]

declare module 'fastify' {
  interface FastifyInstance {
    /** where the metrics listener answers (METRICS_PORT), once the service is ready */
    metricsAddress: () => string | undefined
  }
}

/**
 * The requests' figures (by route template: a bounded label, never the URL), the database's
 * connections, and the listener that serves them all apart from the public one.
 */
function observeService (app: FastifyInstance, metrics: Metrics, database: Database, config: Config, scraped: boolean): Running {
  if (scraped) {
    app.addHook('onResponse', (req, reply, done) => {
      metrics.httpRequest(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
      if (reply.statusCode >= 500) metrics.failure('http_server_error')
      done()
    })
  }
  const use = database.poolUse
  metrics.sampled('gauge', 'db_pool_connections', 'Database connections by state (in_use, max); the embedded database has one, taken in turns', ['state'],
    () => { const u = use(); return [{ labels: { state: 'in_use' }, value: u.inUse }, { labels: { state: 'max' }, value: u.max }] })
  metrics.sampled('gauge', 'db_pool_waiting_requests', 'Queries waiting for a database connection now', [], () => [{ value: use().waiting }])
  metrics.sampled('counter', 'db_pool_acquired_total', 'Database connections (or turns) taken', [], () => [{ value: use().acquired }])
  metrics.sampled('counter', 'db_pool_wait_seconds_total', 'Time spent waiting for a database connection (or turn)', [], () => [{ value: use().waitSeconds }])
  metrics.sampled('counter', 'db_pool_wait_timeouts_total', 'Waits for a database connection that gave up (answered 503)', [], () => [{ value: use().timeouts }])
  const listener = config.metrics ? metricsListener(metrics, config.metrics, app.log) : undefined
  app.decorate('metricsAddress', () => listener?.address())
  return listener ?? {}
}

/** Builds the whole application from its dependencies; no side effects beyond the returned instance. */
export async function buildApp (deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps
  const { db } = database
  const clock = deps.clock ?? systemClock
  const jwtSecret = config.jwtSecret ?? deps.jwtSecret
  if (!jwtSecret) throw new Error('buildApp needs config.jwtSecret or deps.jwtSecret')
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    bodyLimit: BODY_LIMIT,
    genReqId: requestId,
    requestIdHeader: false,
    // a path Fastify cannot route (bad percent-encoding, a parameter over 100 characters) still gets a FastAPI body
    frameworkErrors,
    // a stop finishes what had reached the service (lib/drain.ts) rather than answering 503
    return503OnClosing: false,
    // a hop count as the function Fastify would make of it (its types only take the other forms)
    trustProxy: typeof config.trustProxy === 'number' ? ((hops: number) => (_address: string, hop: number) => hop < hops)(config.trustProxy) : config.trustProxy,
    // response serializers built on the shared schemas they name, once per process (lib/serializers.ts)
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>()

  traceRequests(app)
  recordRoutes(app)
  // the process's own figures (CPU, memory, event loop) and the requests' only where someone scrapes them
  const scraped = config.metrics !== undefined || deps.metrics !== undefined
  const metrics = deps.metrics ?? createMetrics({ processFigures: scraped })
  const figures = observeService(app, metrics, database, config, scraped)

  const drain = drainOnClose(app, { acceptWindowMs: 1000, quietMs: 100, idleGraceMs: 1000, deadlineMs: STOP_GRACE_MS - 2000 })
  registerNotFound(app)
  acceptEmptyJsonBodies(app)
  registerErrorHandler(app)
  installValidators(app, sharedSchemas)
  for (const schema of sharedSchemas) app.addSchema(schema)
  if (config.corsOrigins.length > 0) await app.register(cors, { origin: config.corsOrigins, credentials: true })
  await registerOpenApi(app, serviceVersion)

  const ami = deps.pbxControl || !config.pbx.ami ? undefined : createAmiClient(config.pbx.ami)
  // reloads wait on a connection of their own: the desks' actions go on meanwhile
  const reloads = ami && config.pbx.ami ? createAmiClient(config.pbx.ami) : undefined
  if (ami) app.addHook('onClose', async () => { ami.close(); reloads?.close() })
  const control = deps.pbxControl ?? (ami ? amiPbxControl(ami, reloads && { client: reloads, timeoutMs: config.pbx.ami!.reloadTimeoutMs }) : undefined)
  const mailer = deps.mailer ?? (config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createOutboxMailer({ store: createMailOutboxRepo(db).store, log: (fields, msg) => app.log.info(fields, msg) }))
  // reference data from each instance's memory: dropped on a write here, on a NOTIFY from elsewhere
  const referenceChanges = createNotifier(database, REFERENCE_CHANNEL)
  const referenceCache = createReferenceCache({ maxVariants: config.referenceCacheVariants, isLive: () => config.referenceCacheVariants > 0 && referenceChanges.listening, looked: metrics.referenceLookup })
  referenceChanges.subscribe(referenceCache.drop)
  referenceChanges.onState(() => referenceCache.clear())
  // the Shape B list names each organization's region and oblast
  referenceCache.onDrop((topic) => { if (topic === 'regions') referenceCache.drop('organizations') })
  await app.register(referenceCachePlugin, { cache: referenceCache })

  const log = app.log
  const auth = createAuthModule({ database, config, jwtSecret, clock, mailer, referenceChanges, referenceCache, log })
  const classifiers = createClassifiersModule({ db })
  const regions = createRegionsModule({ db })
  const audit = createAuditModule({ db, oneWriter: database.kind === 'pglite', clock, log, audit: config.audit, jwtSecret, timeZone: config.appeals.timeZone, exportMaxRows: config.appeals.exportMaxRows, purgeIntervalMs: config.calls.purgeIntervalMs })
  const recorded = recordings.createRecordingsModule({ db, recordings: config.recordings, metrics, log, audit: audit.port, clock, timeZone: config.appeals.timeZone, isCentreStaff: centreStaffPolicy(db) })
  // an operator's console opening or closing makes their phone ring or not (the agents' module, below)
  const callEvents = createCallEventsModule({
    database, clock, calls: config.calls, log, control, isCentreStaff: centreStaffPolicy(db), metrics, audit: audit.port,
    presence: { opened: (userId) => agents.port.consoleOpened(userId), closed: (userId, othersOpen) => agents.port.consoleClosed(userId, othersOpen) },
  })
  const queueControl = deps.queueControl ?? (ami ? amiQueueControl(ami) : undefined)
  const agents = createAgentsModule({ db, clock, log, control, queues: queueControl, openConsoles: callEvents.port.openConsoles, restoreIntervalMs: config.pbx.agentRestoreIntervalMs, websocketUrl: config.pbx.websocketUrl })
  const llm = createLlmModule({ db, llm: config.llm, gateway: deps.llmGateway, classifiers: classifiers.port, log, metrics })
  // a calendar edit rewrites the dialplan's schedules (with AMI), in the background of the edit's answer
  const calendar = createCalendarModule({
    database, settings: config.appeals, clock,
    changed: () => { void pbx.port.calendarChanged().then((r) => { if (r) log.info({ result: r }, 'dialplan follows the calendar') }, (err: unknown) => log.warn({ err }, 'the dialplan could not follow the calendar')) },
  })
  const lineSwitches = lineSwitch.createLineSwitchModule({ database, clock, control })
  const routing = callRouting.createCallRoutingModule({ db, decoder: deps.audioDecoder, audio: config.audio, recordingsDir: config.recordings.dir, log })
  const pbx = createPbxModule({ database, clock, pbx: config.pbx, control, calendar: calendar.port, reloaded: lineSwitches.port.reconcile, log, metrics })
  // Asterisk's call, agent and user events on a connection of their own, read by one instance at a time
  const events = !config.pbx.ami || deps.pbxControl ? undefined : createAmiClient({ ...config.pbx.ami, events: lineCalls.CALL_EVENT_CLASSES })
  const sms = deps.sms ?? (config.notifications.smpp ? createSmppGateway(config.notifications.smpp) : undefined)
  // the development outbox mailer is not a delivery: without SMTP_URL e-mail notifications wait
  const notifications = createNotificationsModule({ db, clock, log, notifications: config.notifications, publicUrl: config.publicUrl, mailer: deps.mailer ?? (config.smtpUrl ? mailer : undefined), sms, metrics })
  const appealsModule = createAppealsModule({ db, clock, log, appeals: config.appeals, calendar: calendar.port, notifications: notifications.port, live: callEvents.port, llm: llm.port })
  const calls = placedCalls.createPlacedCallsModule({
    database, clock, log, control: ami ? amiCallControl(ami) : undefined, queues: queueControl, calendar: calendar.port, appeals: appealsModule.port, desk: callEvents.port, publish: callEvents.port.publish,
    lineChanged: (organizationId) => { void callEvents.port.publish({ type: 'line.changed', organization_id: organizationId, employee_id: null }).catch(() => {}) },
    callEnded: recorded.port.callEnded, audit: audit.port,
  })

  await mountModules(app, [
    { port: undefined, running: [figures, referenceChanges] },
    auth,
    // before the modules whose answers it records
    audit,
    createHealthModule({
      database,
      readiness: { stopping: drain.stopping, appliedMigrations: () => appliedMigrations(database), expectedMigrations: shippedMigrations(), listening: () => listeningOf(database), ami: ami ? amiAnswers(ami) : undefined, warnings: () => [...openAccessWarnings(config), ...recorded.port.warnings()] },
    }),
    createConsoleModule({ timeZone: config.appeals.timeZone, websocketUrl: config.pbx.websocketUrl }),
    createEmployeesModule({ db, accountChanged: auth.port.accountChanged }),
    classifiers,
    regions,
    createReferencesModule({ db, regions: regions.port, clock }),
    createOrganizationsModule({ db, clock, extSync: config.extSync, log, metrics }),
    createPlatformModule({ db, clock, cellId: config.cellId }),
    createEndpointsModule({ db, sipRealm: config.pbx.sipRealm, sipServer: config.pbx.sipServer, websocketUrl: config.pbx.websocketUrl, control }),
    trunks.createTrunksModule({ db, control }),
    routing,
    lineSwitches,
    pbx,
    callEvents,
    agents,
    lineCalls.createLineCallsModule({
      database, log, clock, timeZone: config.appeals.timeZone, events, queues: queueControl, desk: callEvents.port, publish: callEvents.port.publish, calls: config.calls, metrics,
      callEnded: recorded.port.callEnded, listeners: [routing.port.dialplanEvent, calls.port.event],
      pbxAnswers: ami ? amiAnswers(ami) : deps.pbxControl && (async () => { await deps.pbxControl!.status() }),
    }),
    recorded,
    llm,
    createGroupsModule({ db }),
    calendar,
    notifications,
    appealsModule,
    calls,
  ])
  return app
}
