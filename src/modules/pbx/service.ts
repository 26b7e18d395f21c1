import type { FastifyBaseLogger } from 'fastify'
import type { Transactional } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import type { AsteriskLog } from '../../integrations/asterisk-log/index.js'
import { join } from 'node:path'
import type { Clock } from '../../lib/clock.js'
import { localDate, type WorkingCalendar } from '../calendar/index.js'
import { PBX_SCOPE_EVERY_ORGANIZATION, PBX_SCOPE_SHARED } from '../../db/schema/pbx.js'
import { createPbxApplier, RELOAD_COMMANDS, type ReloadModule } from './apply.js'
import { dialplanCalendar } from './call-flow.js'
import type { PbxNetwork } from '../../integrations/asterisk/transports.js'
import { configFiles, defaultPbxOptions, extensionsConfig, queuesConfig, sipConfig, type PbxOptions, type PbxOrganization } from './generators.js'
import { wholeText } from './config-text.js'
import { loadPbxModel, withMaskedCredentials } from './model.js'
import type { PbxRepo, PbxTxRepo } from './repo.js'
import type { reloadModules } from './schemas.js'

const generators = {
  sip: { file: 'pjsip.conf', render: (m: PbxOrganization[], options: PbxOptions) => sipConfig(m, options) },
  queues: { file: 'queues.conf', render: (m: PbxOrganization[]) => queuesConfig(m) },
  extensions: { file: 'extensions.conf', render: (m: PbxOrganization[], options: PbxOptions) => extensionsConfig(m, options) },
}
export type ConfigType = keyof typeof generators

const reloadsOf: Record<typeof reloadModules[number], ReloadModule[]> = { all: ['pjsip', 'dialplan', 'queues'], pjsip: ['pjsip'], dialplan: ['dialplan'], queues: ['queues'] }

/** a scope's refusals by each module's reload, as one text (null: none) */
const joinedOrNull = (messages: string[]) => (messages.length > 0 ? messages.join('; ') : null)

const NO_AMI = 'Asterisk Manager Interface is not configured (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

export function createPbxService ({ repo, transaction, exclusively, log, configDir, asteriskConfigDir, soundsDir, recordingsDir, backupRetention = 20, clock, control, asteriskLog, calendar, reloaded, network }: {
  repo: PbxRepo
  transaction: Transactional<PbxTxRepo>
  /** `work` while no other instance writes the configuration */
  exclusively: <T>(work: () => Promise<T>) => Promise<T>
  log?: Pick<FastifyBaseLogger, 'error'>
  configDir: string
  /** the same folder as Asterisk sees it (the main files include the organizations' files by it) */
  asteriskConfigDir: string
  /** Asterisk's sounds directory: the recorded prompts are written under it */
  soundsDir: string
  /** where the dialplan has Asterisk record the calls; absent: nothing is recorded */
  recordingsDir?: string
  /** where the transports listen (PBX_SIP_BIND and the others) */
  network?: PbxNetwork
  /** the centre's working calendar (schedules that follow it are written out from it) */
  calendar: () => Promise<WorkingCalendar>
  /** backups kept (PBX_BACKUP_RETENTION) */
  backupRetention?: number
  clock: Clock
  control?: PbxControl
  /** where Asterisk says what it refused (PBX_ASTERISK_LOG) */
  asteriskLog?: AsteriskLog
  /** after a generation Asterisk reloaded: what lives in Asterisk's database is put back (the lines' switches) */
  reloaded?: () => Promise<void>
}) {
  async function reload (module: typeof reloadModules[number]) {
    if (!control) return { success: false, message: NO_AMI, output: '', outcome: 'not_configured' as const }
    const output: string[] = []
    try {
      const modules = reloadsOf[module]
      const outputs = await applier.reloadModules(control, modules)
      modules.forEach((each, i) => output.push(`> ${RELOAD_COMMANDS[each]}`, ...outputs[i]!))
      return { success: true, message: `Reloaded: ${module}`, output: output.join('\n'), outcome: 'reloaded' as const }
    } catch (err) {
      return { success: false, message: `Reload failed: ${(err as Error).message}`, output: output.join('\n'), outcome: 'reload_failed' as const }
    }
  }

  /** read before a generation reads the database: the calendar's kept copy refills through the plain handle */
  async function options (): Promise<PbxOptions> {
    const current = await calendar()
    return { ...defaultPbxOptions, recordingsDir, network, calendar: dialplanCalendar(current, Number(localDate(current.timeZone, clock()).slice(0, 4))) }
  }

  const applier = createPbxApplier({ repo, transaction, exclusively, log, places: { configDir, asteriskConfigDir, soundsDir, backupRetention }, clock, control, asteriskLog, options, reloaded })
  const mainFiles = () => Object.keys(configFiles).sort().map((name) => join(configDir, name))

  /** generate-configs: every organization whose files on disk are not what was written for its version rendered again, every file that differs written and the whole set backed up; those with problems keep their last good files */
  async function generate ({ saveToDisk, reloadPbx }: { saveToDisk: boolean, reloadPbx: boolean }) {
    if (!saveToDisk) {
      const errors = await applier.check()
      return errors.length > 0
        ? { success: false, message: `${errors.length} problems; nothing was written`, files: [], backup_path: null, errors, outcome: 'invalid' as const }
        : { success: true, message: 'Configuration is valid (save_to_disk=false: nothing written)', files: [], backup_path: null, errors: [], outcome: 'checked' as const }
    }
    const written = await applier.write(true)
    if (written.outcome === 'write_failed') return { success: false, message: 'Writing the configuration failed; the previous files are in place', files: [], backup_path: null, errors: [written.error!], outcome: 'write_failed' as const }
    const errors = written.refused.map((r) => r.problem)
    const kept = written.refused.length > 0 ? `; ${written.refused.length} kept their last good configuration` : ''
    const sounds = written.sounds && written.sounds.written + written.sounds.removed > 0 ? `; prompts: ${written.sounds.written} written, ${written.sounds.removed} removed` : ''
    const result = { success: errors.length === 0, message: `${written.changed.length} files written${sounds}${kept}`, files: mainFiles(), backup_path: written.backupPath, errors, outcome: written.outcome === 'partly_written' ? 'partly_written' as const : 'written' as const }
    if (!reloadPbx) return result
    if (!control) return { ...result, success: false, message: `${result.message}; reload failed`, errors: [...errors, NO_AMI], outcome: 'reload_failed' as const }
    const reloadedNow = await applier.reloadPending({ every: true })
    if (reloadedNow.error) return { ...result, success: false, message: `${result.message}; reload failed`, errors: [...errors, reloadedNow.error], outcome: 'reload_failed' as const }
    const restored = reloadedNow.notRestored === undefined ? '' : `; the lines' switches were not put back: ${reloadedNow.notRestored}`
    return { ...result, message: `${result.message}; Asterisk reloaded${restored}`, outcome: errors.length > 0 ? 'partly_written' as const : 'written_reloaded' as const }
  }

  return {
    /** the file as it would be written, every secret masked for everyone: only the files on disk carry them */
    async preview (type: ConfigType) {
      const settings = await options()
      const masked = withMaskedCredentials(await loadPbxModel(repo))
      const content = wholeText(generators[type].render(masked.organizations, { ...settings, trunks: masked.trunks }))
      return { config_type: type, content, lines_count: content.split('\n').length }
    },

    /** validates, then writes every file atomically with a backup of the previous set, and the prompts; one generation at a time */
    generate,
    applier,

    reload,

    /** how the configuration stands on the PBX: applied, pending, waiting for Asterisk, what was refused */
    async applyState (auto: boolean, applying: boolean) {
      const [state, versions, active, asterisk] = [await repo.state(), await repo.versions(), await repo.activeOrganizations(), await repo.asteriskRefusals()]
      const names = new Map(active.map((o) => [o.id, o]))
      const pending = versions.some((v) => v.applied !== v.version)
      const organization = (id: number) => ({ organization_id: id, prefix: names.get(id)!.prefix, name: names.get(id)!.name })
      const refused = [
        ...versions.filter((v) => v.problem !== null && names.has(v.scope))
          .map((v) => ({ ...organization(v.scope), problem: v.problem!, refused_by: 'service' as const, since: (v.problem_since ?? state.applied_at ?? clock()).toISOString() })),
        ...asterisk.filter((r) => names.has(r.scope))
          .map((r) => ({ ...organization(r.scope), problem: r.message, refused_by: 'asterisk' as const, since: r.logged_at.toISOString() })),
      ].slice(0, 200)
      return {
        state: stateOf(auto, applying, pending, state),
        applied_at: state.applied_at?.toISOString() ?? null,
        pending_reloads: state.pending_reloads,
        error: state.error,
        error_at: state.error_at?.toISOString() ?? null,
        refused,
        trunks_problem: versions.find((v) => v.scope === PBX_SCOPE_SHARED)?.problem ?? null,
        asterisk_problem: joinedOrNull(asterisk.filter((r) => r.scope === PBX_SCOPE_SHARED).map((r) => r.message)),
      }
    },

    organizationExists: async (id: number) => (await repo.organization(id)) !== undefined,

    /** the same for one organization: whether its last edit runs on the PBX */
    async organizationApplyState (organizationId: number, auto: boolean, applying: boolean) {
      const [state, versions, asterisk] = [await repo.state(), await repo.versionsOf([organizationId, PBX_SCOPE_SHARED, PBX_SCOPE_EVERY_ORGANIZATION]), await repo.asteriskRefusals([organizationId])]
      const own = versions.find((v) => v.scope === organizationId)
      const pending = own === undefined ? false : own.applied !== own.version || versions.some((v) => v.scope <= 0 && v.applied !== v.version)
      const asteriskSaid = joinedOrNull(asterisk.map((r) => r.message))
      const refusedBy = own?.problem ? 'service' as const : asteriskSaid !== null ? 'asterisk' as const : null
      return {
        state: refusedBy !== null && !pending ? 'refused' as const : stateOf(auto, applying, pending, state),
        applied_at: state.applied_at?.toISOString() ?? null,
        problem: own?.problem ?? asteriskSaid,
        refused_by: refusedBy,
        error: state.error,
      }
    },

    async status () {
      if (!control) return { connected: false, message: NO_AMI }
      try {
        const s = await control.status()
        return { connected: true, message: 'Asterisk is answering', asterisk_version: s.version, uptime_seconds: s.uptimeSeconds, last_reload_seconds: s.lastReloadSeconds, current_calls: s.currentCalls }
      } catch (err) {
        return { connected: false, message: `Asterisk is not answering: ${(err as Error).message}` }
      }
    },
  }
}

function stateOf (auto: boolean, applying: boolean, pending: boolean, state: { pending_reloads: string[], error: string | null }) {
  if (!auto) return 'off' as const
  if (applying) return 'applying' as const
  if (pending) return 'pending' as const
  if (state.pending_reloads.length > 0) return 'waiting_for_asterisk' as const
  return state.error ? 'failed' as const : 'applied' as const
}

export type PbxService = ReturnType<typeof createPbxService>
