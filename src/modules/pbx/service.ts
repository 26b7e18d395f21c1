import type { Transactional } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { writeConfigSet } from '../../integrations/asterisk-files/index.js'
import { syncSounds } from '../../integrations/asterisk-files/sounds.js'
import type { Clock } from '../../lib/clock.js'
import { localDate, type WorkingCalendar } from '../calendar/index.js'
import { dialplanCalendar, promptFiles } from './call-flow.js'
import { defaultPbxOptions, extensionsConfig, flowOf, queuesConfig, sipConfig, validateModel, type PbxOptions, type PbxOrganization } from './generators.js'
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

const reloadCommands: Record<typeof reloadModules[number], string[]> = {
  all: ['module reload res_pjsip.so', 'dialplan reload', 'queue reload all'],
  pjsip: ['module reload res_pjsip.so'],
  dialplan: ['dialplan reload'],
  queues: ['queue reload all'],
}

const NO_AMI = 'Asterisk Manager Interface is not configured (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

export function createPbxService ({ repo, transaction, configDir, soundsDir, recordingsDir, backupRetention = 20, clock, control, calendar, reloaded }: {
  repo: PbxRepo
  transaction: Transactional<PbxTxRepo>
  configDir: string
  /** Asterisk's sounds directory: the recorded prompts are written under it */
  soundsDir: string
  /** where the dialplan has Asterisk record the calls; absent: nothing is recorded */
  recordingsDir?: string
  /** the centre's working calendar (schedules that follow it are written out from it) */
  calendar: () => Promise<WorkingCalendar>
  /** backups kept (PBX_BACKUP_RETENTION) */
  backupRetention?: number
  clock: Clock
  control?: PbxControl
  /** after a generation Asterisk reloaded: what lives in Asterisk's database is put back (the lines' switches) */
  reloaded?: () => Promise<void>
}) {
  async function reload (module: typeof reloadModules[number]) {
    if (!control) return { success: false, message: NO_AMI, output: '', outcome: 'not_configured' as const }
    const output: string[] = []
    try {
      for (const command of reloadCommands[module]) output.push(`> ${command}`, ...await control.reload(command))
      return { success: true, message: `Reloaded: ${module}`, output: output.join('\n'), outcome: 'reloaded' as const }
    } catch (err) {
      return { success: false, message: `Reload failed: ${(err as Error).message}`, output: output.join('\n'), outcome: 'reload_failed' as const }
    }
  }

  /** read before a generation's transaction begins: the calendar's kept copy refills through the plain handle */
  async function options (): Promise<PbxOptions> {
    const current = await calendar()
    return { ...defaultPbxOptions, recordingsDir, calendar: dialplanCalendar(current, Number(localDate(current.timeZone, clock()).slice(0, 4))) }
  }

  async function generate ({ saveToDisk, reloadPbx }: { saveToDisk: boolean, reloadPbx: boolean }) {
    const settings = await options()
    const result = await transaction(async (tx) => {
      await tx.lockGeneration()
      const { organizations: model, trunks } = await loadPbxModel(tx)
      const errors = validateModel(model, trunks)
      if (errors.length > 0) return { success: false, message: `${errors.length} problems; nothing was written`, files: [], backup_path: null, errors, outcome: 'invalid' as const }
      const files = Object.fromEntries(Object.values(generators).map((g) => [g.file, g.render(model, { ...settings, trunks })]))
      if (!saveToDisk) return { success: true, message: 'Configuration is valid (save_to_disk=false: nothing written)', files: Object.keys(files).sort(), backup_path: null, errors: [], outcome: 'checked' as const }
      try {
        const written = await writeConfigSet(configDir, files, clock(), backupRetention)
        const sounds = await syncSounds(soundsDir, soundFiles(model), (f) => tx.recording(f.promptId, f.language))
        const said = sounds.written + sounds.removed > 0 ? `; prompts: ${sounds.written} written, ${sounds.removed} removed` : ''
        return { success: true, message: `${written.files.length} files written${said}`, files: written.files, backup_path: written.backupPath, errors: [], outcome: 'written' as const }
      } catch (err) {
        return { success: false, message: 'Writing the configuration failed; the previous files are in place', files: [], backup_path: null, errors: [(err as Error).message], outcome: 'write_failed' as const }
      }
    })
    if (!result.success || !reloadPbx || !saveToDisk) return result
    const reloadedNow = await reload('all')
    if (!reloadedNow.success) return { ...result, success: false, message: `${result.message}; reload failed`, errors: [reloadedNow.message], outcome: 'reload_failed' as const }
    const restored = await reloaded?.().then(() => '', (err: unknown) => `; the lines' switches were not put back: ${(err as Error).message}`) ?? ''
    return { ...result, message: `${result.message}; Asterisk reloaded${restored}`, outcome: 'written_reloaded' as const }
  }

  const soundFiles = (model: PbxOrganization[]) => model.flatMap((o) => { const flow = flowOf(o); return flow ? promptFiles(flow) : [] })

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

    /**
     * The working calendar changed: with AMI, the files are written again and the dialplan reloaded, so
     * a line's hours follow the edit without anyone regenerating by hand. Answers what was done
     * (nothing without AMI: the files are written by the next generation).
     */
    async calendarChanged () {
      if (!control) return undefined
      const generated = await generate({ saveToDisk: true, reloadPbx: false })
      if (!generated.success) return generated
      const reloaded = await reload('dialplan')
      return { ...generated, success: reloaded.success, message: `${generated.message}; ${reloaded.message}`, outcome: reloaded.success ? 'written_reloaded' as const : 'reload_failed' as const }
    },

    reload,

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

export type PbxService = ReturnType<typeof createPbxService>
