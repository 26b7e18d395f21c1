import cors from '@fastify/cors'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import type { TSchema } from 'typebox'
import type { Config } from './config.js'
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
import { authPlugin } from './lib/auth.js'
import { systemClock, type Clock } from './lib/clock.js'
import { createTokenIssuer } from './lib/tokens.js'
import { transactional } from './db/client.js'
import { createInvalidatedCache } from './lib/invalidated-cache.js'
import { changesReferences, createReferenceCache, REFERENCE_CHANNEL, referenceCachePlugin, referenceRoutes, withReferences } from './lib/reference-cache.js'
import { createNotifier } from './db/notify.js'
import * as appeals from './modules/appeals/index.js'
import * as auth from './modules/auth/index.js'
import * as calendar from './modules/calendar/index.js'
import * as consolePages from './modules/console/index.js'
import * as callEvents from './modules/call-events/index.js'
import * as classifiers from './modules/classifiers/index.js'
import * as employees from './modules/employees/index.js'
import * as endpoints from './modules/endpoints/index.js'
import * as groups from './modules/groups/index.js'
import * as health from './modules/health/index.js'
import * as llm from './modules/llm/index.js'
import { createLlmGateway, type LlmGateway } from './integrations/llm/gateway.js'
import * as organizations from './modules/organizations/index.js'
import * as pbx from './modules/pbx/index.js'
import * as platform from './modules/platform/index.js'
import { createAmiClient } from './integrations/ami/client.js'
import { amiPbxControl, type PbxControl } from './integrations/ami/pbx-control.js'
import { createExtSyncClient } from './integrations/ext-sync/index.js'
import * as references from './modules/references/index.js'
import * as regions from './modules/regions/index.js'
import * as notifications from './modules/notifications/index.js'
import { createSmppGateway, type SmsGateway } from './integrations/sms/index.js'

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
  /** defaults to the providers of config.llm over HTTP */
  llmGateway?: LlmGateway
  /** defaults to SMPP when SMPP_URL is set, else SMS notifications wait */
  sms?: SmsGateway
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
    redact: { paths: redact, censor: '[redacted]' },
    // Fastify's request line without the secrets a URL may carry (?token= of WebSocket consoles)
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: loggableUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
  }
}

const sharedSchemas: TSchema[] = [...commonSchemas, ...health.schemas, ...auth.schemas, ...employees.schemas, ...classifiers.schemas, ...references.schemas, ...regions.schemas, ...organizations.schemas, ...endpoints.schemas, ...pbx.schemas, ...callEvents.schemas, ...llm.schemas, ...platform.schemas, ...groups.schemas, ...calendar.schemas, ...appeals.schemas, ...notifications.schemas]

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
  }).withTypeProvider<TypeBoxTypeProvider>()

  drainOnClose(app, { acceptWindowMs: 1000, quietMs: 100, idleGraceMs: 300, deadlineMs: STOP_GRACE_MS - 2000 })
  registerNotFound(app)
  acceptEmptyJsonBodies(app)
  registerErrorHandler(app)
  installValidators(app, sharedSchemas)
  for (const schema of sharedSchemas) app.addSchema(schema)
  if (config.corsOrigins.length > 0) await app.register(cors, { origin: config.corsOrigins, credentials: true })
  await registerOpenApi(app, serviceVersion)

  const ami = deps.pbxControl || !config.pbx.ami ? undefined : createAmiClient(config.pbx.ami)
  if (ami) app.addHook('onClose', async () => { ami.close() })
  const pbxControl = deps.pbxControl ?? (ami ? amiPbxControl(ami) : undefined)
  const mailer = deps.mailer ?? (config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createOutboxMailer({ store: createMailOutboxRepo(db).store, log: (fields, msg) => app.log.info(fields, msg) }))
  // reference data from each instance's memory: dropped on a write here, on a NOTIFY from elsewhere
  const referenceChanges = createNotifier(database, REFERENCE_CHANNEL)
  const referenceCache = createReferenceCache({ maxVariants: config.referenceCacheVariants, isLive: () => config.referenceCacheVariants > 0 && referenceChanges.listening })
  referenceChanges.subscribe(referenceCache.drop)
  referenceChanges.onState(() => referenceCache.clear())
  app.addHook('onReady', async () => { await referenceChanges.start() })
  app.addHook('onClose', async () => { await referenceChanges.stop() })
  await app.register(referenceCachePlugin, { cache: referenceCache })
  const authRepo = auth.createAuthRepo(db)
  // every authenticated request reads its principal: from memory, kept fresh by the users table's trigger
  const principalChanges = createNotifier(database, 'principal_changed')
  const principals = createInvalidatedCache({ load: authRepo.findPrincipal, maxEntries: 20_000, isLive: () => principalChanges.listening })
  // the profile too (it names the organization: a rename of one drops them all)
  const profiles = createInvalidatedCache({ load: authRepo.findProfile, maxEntries: 20_000, isLive: () => principalChanges.listening && referenceChanges.listening })
  const accountChanged = (id: number) => { principals.forget(id); profiles.forget(id) }
  principalChanges.subscribe((id) => { accountChanged(Number(id)) })
  principalChanges.onState(() => { principals.clear(); profiles.clear() })
  referenceCache.onDrop((topic) => {
    if (topic === 'organizations') profiles.clear()
    // the Shape B list names each organization's region and oblast
    if (topic === 'regions') referenceCache.drop('organizations')
  })
  app.addHook('onReady', async () => { await principalChanges.start() })
  app.addHook('onClose', async () => { await principalChanges.stop() })
  const authService = auth.createAuthService({
    findPrincipal: principals.get,
    peekPrincipal: principals.peek,
    findProfile: profiles.get,
    principalChanged: accountChanged,
    repo: authRepo,
    transaction: transactional(db, auth.createAuthRepo),
    tokens: createTokenIssuer({ secret: jwtSecret, ttlSeconds: config.accessTokenTtlSeconds, clock }),
    mailer,
    clock,
    publicUrl: config.publicUrl.replace(/\/+$/, ''),
    log: app.log,
  })
  await app.register(authPlugin, { authMode: config.authMode, serviceToken: config.serviceToken, resolvePrincipal: authService.resolvePrincipal, knownPrincipal: authService.knownPrincipal })

  await app.register(health.routes, { ping: database.ping, databaseKind: database.kind })
  await app.register(consolePages.routes, { timeZone: config.appeals.timeZone })
  for (const [prefix, variant] of [['/api/auth', ''], ['/api/shared/auth', 'Shared']] as const) {
    await app.register(auth.routes, { prefix, variant, service: authService })
  }
  // employees and terminals are counted in the Shape B list: the writer's own copy goes before its answer
  await app.register(withReferences(changesReferences('organizations'), async (scope) => {
    await scope.register(employees.routes, { prefix: '/api/employees', service: employees.createEmployeeService({ repo: employees.createEmployeeRepo(db), principalChanged: accountChanged }) })
  }))
  const classifierService = classifiers.createClassifierService({ repo: classifiers.createClassifierRepo(db) })
  await app.register(withReferences(referenceRoutes('classifiers'), async (scope) => {
    await scope.register(classifiers.routes, { prefix: '/api/classifiers', service: classifierService })
  }))
  const regionService = regions.createRegionService({ repo: regions.createRegionRepo(db), transaction: transactional(db, regions.createRegionRepo) })
  await app.register(withReferences(referenceRoutes('regions'), async (scope) => {
    for (const [prefix, variant] of [['/api/regions', ''], ['/api/shared/regions', 'Shared']] as const) {
      await scope.register(regions.routes, { prefix, variant, service: regionService })
    }
  }))
  await app.register(references.routes, { prefix: '/api/references', service: references.createReferenceService({ repo: references.createReferenceRepo(db), regions: regionService, clock }) })
  const organizationRepos = (d: typeof db) => ({ orgs: organizations.createOrganizationRepo(d), sync: organizations.createExtSyncRepo(d), regions: regions.createRegionRepo(d) })
  const organizationService = organizations.createOrganizationService({
    repos: organizationRepos(db),
    transaction: transactional(db, organizationRepos),
    clock,
    extSyncEnabled: config.extSync.url !== undefined,
  })
  await app.register(withReferences(changesReferences('organizations'), async (scope) => {
    await scope.register(organizations.sharedRoutes, { prefix: '/api/organizations', shape: 'A', service: organizationService })
    await scope.register(organizations.sharedRoutes, { prefix: '/api/shared/organizations', shape: 'S', service: organizationService })
    await scope.register(organizations.telephonyRoutes, { prefix: '/api/organizations', service: organizationService })
  }))
  await app.register(platform.routes, {
    prefix: '/platform',
    service: platform.createPlatformService({ repo: platform.createPlatformRepo(db), transaction: transactional(db, platform.createPlatformRepo), cellId: config.cellId, clock }),
  })
  await app.register(withReferences(changesReferences('organizations'), async (scope) => {
    await scope.register(endpoints.routes, {
      prefix: '/api/organizations/:tenant_id/endpoints',
      service: endpoints.createEndpointService({ repo: endpoints.createEndpointRepo(db), transaction: transactional(db, endpoints.createEndpointRepo), sipRealm: config.pbx.sipRealm, control: pbxControl }),
    })
  }))
  await app.register(pbx.routes, {
    prefix: '/api/pbx',
    service: pbx.createPbxService({ repo: pbx.createPbxRepo(db), transaction: transactional(db, pbx.createPbxRepo), configDir: config.pbx.configDir, backupRetention: config.pbx.backupRetention, clock, control: pbxControl }),
  })
  const callRepo = callEvents.createCallRepo(db)
  const callNotifier = createNotifier(database, 'call_events')
  app.addHook('onReady', async () => { await callNotifier.start() })
  app.addHook('onClose', async () => { await callNotifier.stop() })
  const appealRepo = appeals.createAppealRepo(db)
  const live = callEvents.createLiveEvents(callNotifier, { isCentreStaff: appeals.centreStaffCheck(appealRepo) })
  await app.register(callEvents.routes, {
    prefix: '/api/call-events',
    live,
    service: callEvents.createCallEventService({ repo: callRepo, transaction: transactional(db, callEvents.createCallRepo), clock, live, log: app.log, control: pbxControl }),
  })
  const retention = callEvents.createRetentionJob({ repo: callRepo, clock, log: app.log, retentionDays: config.calls.retentionDays, intervalMs: config.calls.purgeIntervalMs })
  app.addHook('onReady', async () => { retention.start() })
  app.addHook('onClose', async () => { await retention.stop() })
  if (config.extSync.url) {
    const worker = organizations.createExtSyncWorker({
      repo: organizations.createExtSyncRepo(db),
      client: createExtSyncClient({ url: config.extSync.url, token: config.extSync.token, timeoutMs: config.extSync.timeoutMs }),
      clock,
      log: app.log,
      ...config.extSync,
    })
    app.addHook('onReady', async () => { worker.start() })
    app.addHook('onClose', async () => { await worker.stop() })
  }
  const llmService = llm.createLlmService({
    config: config.llm,
    gateway: deps.llmGateway ?? createLlmGateway(config.llm),
    repo: llm.createLlmRepo(db),
    choices: classifierService.subcategoryChoices,
    log: app.log,
  })
  app.addHook('onClose', llmService.flush)
  await app.register(llm.routes, { prefix: '/api/llm', service: llmService })
  await app.register(withReferences(referenceRoutes('groups'), async (scope) => {
    await scope.register(groups.routes, { prefix: '/api/shared/groups', service: groups.createGroupService({ repo: groups.createGroupRepo(db) }) })
  }))

  const calendarNotifier = createNotifier(database, 'calendar_changed')
  const calendarService = calendar.createCalendarService({
    repo: calendar.createCalendarRepo(db), settings: config.appeals, clock, announceChange: () => calendarNotifier.publish('changed'),
  })
  calendarNotifier.subscribe(calendarService.forget)
  app.addHook('onReady', async () => { await calendarNotifier.start() })
  app.addHook('onClose', async () => { await calendarNotifier.stop() })
  await app.register(calendar.routes, { prefix: '/api/appeals/calendar', service: calendarService })
  const sms = deps.sms ?? (config.notifications.smpp ? createSmppGateway(config.notifications.smpp) : undefined)
  const notificationRepo = notifications.createNotificationRepo(db)
  const notificationWorker = notifications.createNotificationWorker({
    repo: notificationRepo,
    // the development outbox mailer is not a delivery: without SMTP_URL e-mail notifications wait
    mailer: deps.mailer ?? (config.smtpUrl ? mailer : undefined),
    sms,
    clock,
    log: app.log,
    ...config.notifications,
    timeoutMs: config.notifications.smpp?.timeoutMs ?? 5_000,
    messageIdDomain: new URL(config.publicUrl).hostname,
  })
  app.decorate('notifications', notificationWorker)
  app.addHook('onReady', async () => { notificationWorker.start() })
  app.addHook('onClose', async () => { await notificationWorker.stop(); await sms?.close() })
  await app.register(notifications.routes, {
    prefix: '/api/appeals/notifications',
    service: notifications.createNotificationService({ repo: notificationRepo, clock, channels: notificationWorker.channels, poke: notificationWorker.poke }),
  })
  const appealEvent = (event: appeals.AppealLiveEvent) => ({ ...event, employee_id: null, audience: 'appeal' as const })
  const publishAppeal = (event: appeals.AppealLiveEvent) => live.publish(appealEvent(event))
  const appealTransaction = transactional(db, appeals.createAppealRepo)
  const deadlineJob = appeals.createDeadlineJob({
    repo: appealRepo, transaction: appealTransaction, clock, timeZone: config.appeals.timeZone, notify: notificationWorker.poke, publish: publishAppeal, intervalMs: config.appeals.deadlineIntervalMs, log: app.log,
  })
  app.decorate('appealDeadlines', deadlineJob)
  app.addHook('onReady', async () => { deadlineJob.start() })
  app.addHook('onClose', async () => { await deadlineJob.stop() })
  const appealService = appeals.createAppealService({
    repo: appealRepo,
    transaction: appealTransaction,
    calendar: calendarService.current,
    rules: config.appeals,
    clock,
    notify: notificationWorker.poke,
    reviewAnswer: (appeal, actor) => { assistant.reviewLater(appeal, actor) },
    deadlineSet: deadlineJob.poke,
    publish: publishAppeal,
    liveMessage: (event) => live.message(appealEvent(event)),
  })
  const assistant = appeals.createAppealAssistant({
    llm: llmService, repo: appealRepo, visible: appealService.visibleRow, clock, publish: publishAppeal, log: app.log,
  })
  app.addHook('onClose', assistant.flush)
  await app.register(appeals.routes, { prefix: '/api/appeals', service: appealService, assistant, timeZone: config.appeals.timeZone, exportMaxRows: config.appeals.exportMaxRows })

  return app
}
