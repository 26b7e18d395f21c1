import type { FastifyBaseLogger } from 'fastify'
import { transactional, type Database } from '../../db/client.js'
import { createNotifier } from '../../db/notify.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { openAsteriskLog } from '../../integrations/asterisk-log/index.js'
import type { Clock } from '../../lib/clock.js'
import type { Metrics } from '../../lib/metrics.js'
import type { ServiceModule } from '../../lib/module.js'
import type { Config } from '../../config.js'
import type { CalendarPort } from '../calendar/module.js'
import { createAutoApply } from './apply.js'
import { createPbxRepo } from './repo.js'
import routes, { organizationRoutes } from './routes.js'
import { createPbxService } from './service.js'

export interface PbxPort {
  /** the working calendar changed on this instance: with AMI, the dialplan follows it */
  calendarChanged: () => Promise<unknown>
}

// Any constant: the same for every instance of the service.
const APPLY_LOCK = 7_351_055
/** one generation or apply at a time across instances */
const GENERATION_LOCK = 7_351_006
/** how often the leading instance looks for what is pending (a notification lost, Asterisk back) */
const APPLY_CHECK_MS = 2000

/** the generated Asterisk configuration, the prompts beside it, its reload, and its applying itself */
export function createPbxModule (deps: { database: Database, clock: Clock, pbx: Config['pbx'], control?: PbxControl, calendar: CalendarPort, reloaded?: () => Promise<void>, log: Pick<FastifyBaseLogger, 'warn' | 'error'>, metrics?: Metrics }): ServiceModule<PbxPort> {
  const db = deps.database.db
  const repo = createPbxRepo(db)
  const service = createPbxService({
    repo, transaction: transactional(db, createPbxRepo), exclusively: (work) => deps.database.exclusively(GENERATION_LOCK, 0, work), log: deps.log, configDir: deps.pbx.configDir, asteriskConfigDir: deps.pbx.asteriskConfigDir, soundsDir: deps.pbx.soundsDir, recordingsDir: deps.pbx.recordingsDir, network: deps.pbx.network,
    backupRetention: deps.pbx.backupRetention, clock: deps.clock, control: deps.control, calendar: deps.calendar.current, reloaded: deps.reloaded,
    asteriskLog: deps.pbx.asteriskLog === undefined ? undefined : openAsteriskLog(deps.pbx.asteriskLog),
  })
  const auto = deps.pbx.apply === 'auto' && deps.control !== undefined
  const autoApply = createAutoApply({
    applier: service.applier,
    pending: async () => (await repo.versions()).some((v) => v.applied !== v.version) || (await repo.state()).pending_reloads.length > 0 || await service.applier.renderedOtherwise(),
    onError: (err) => deps.log.warn({ err }, 'the PBX configuration was not applied'),
  })
  // only where changes apply themselves: readiness waits for every notifier to listen
  const changes = auto ? createNotifier(deps.database, 'pbx_changed') : undefined
  let timer: NodeJS.Timeout | undefined
  let stopLeading: (() => Promise<void>) | undefined
  let leading = false
  const follow = (lead: boolean) => {
    leading = lead
    clearInterval(timer)
    if (lead) { timer = setInterval(() => { void autoApply.check() }, APPLY_CHECK_MS); void autoApply.check() }
  }
  const applying = () => auto && autoApply.applying
  deps.metrics?.sampled('gauge', 'pbx_organization_refused', 'Organizations whose configuration has a problem, or that Asterisk refused in part (1 each, by prefix): the PBX keeps their last good one (GET /api/pbx/apply-state says why)', ['organization'], async () => {
    const prefixes = new Map((await repo.activeOrganizations()).map((o) => [o.id, o.prefix]))
    const refused = new Set([...(await repo.versions()).filter((v) => v.problem !== null).map((v) => v.scope), ...(await repo.asteriskRefusals()).map((r) => r.scope)])
    return [...refused].filter((scope) => prefixes.has(scope)).map((scope) => ({ labels: { organization: prefixes.get(scope)! }, value: 1 }))
  })
  deps.metrics?.sampled('gauge', 'pbx_apply_pending', 'What waits to reach Asterisk: organizations (and shared parts) changed but not written, reloads written but not done', ['what'], async () => [
    { labels: { what: 'changes' }, value: (await repo.versions()).filter((v) => v.applied !== v.version).length },
    { labels: { what: 'reloads' }, value: (await repo.state()).pending_reloads.length },
  ])
  deps.metrics?.sampled('counter', 'pbx_applies_total', 'Applies of the PBX configuration this instance began (a burst of edits is one)', [], () => [{ value: autoApply.applies }])
  return {
    port: { calendarChanged: async () => { if (auto) autoApply.changed() } },
    running: auto
      ? [{
          start: async () => {
            changes!.subscribe(() => { if (leading) autoApply.changed() })
            await changes!.start()
            stopLeading = await deps.database.lead(APPLY_LOCK, follow)
          },
          stop: async () => { clearInterval(timer); leading = false; service.applier.stop(); await autoApply.stop(); await changes!.stop(); await stopLeading?.() },
        }]
      : [],
    async register (app) {
      await app.register(routes, { prefix: '/api/pbx', service, auto, applying })
      await app.register(organizationRoutes, { prefix: '/api/organizations', service, auto, applying })
    },
  }
}
