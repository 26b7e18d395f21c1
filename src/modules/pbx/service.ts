import type { Transactional } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { writeConfigSet } from '../../integrations/asterisk-files/index.js'
import type { Clock } from '../../lib/clock.js'
import { defaultPbxOptions, generateExtensions, generateQueues, generateSip, validateModel, type PbxOrganization } from './generators.js'
import { loadPbxModel, withMaskedCredentials } from './model.js'
import type { PbxRepo, PbxTxRepo } from './repo.js'
import type { reloadModules } from './schemas.js'

const generators = {
  sip: { file: 'pjsip.conf', render: (m: PbxOrganization[]) => generateSip(m) },
  queues: { file: 'queues.conf', render: (m: PbxOrganization[]) => generateQueues(m) },
  extensions: { file: 'extensions.conf', render: (m: PbxOrganization[]) => generateExtensions(m, defaultPbxOptions) },
}
export type ConfigType = keyof typeof generators

const reloadCommands: Record<typeof reloadModules[number], string[]> = {
  all: ['module reload res_pjsip.so', 'dialplan reload', 'queue reload all'],
  pjsip: ['module reload res_pjsip.so'],
  dialplan: ['dialplan reload'],
  queues: ['queue reload all'],
}

const NO_AMI = 'Asterisk Manager Interface is not configured (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

export function createPbxService ({ repo, transaction, configDir, backupRetention = 20, clock, control }: {
  repo: PbxRepo
  transaction: Transactional<PbxTxRepo>
  configDir: string
  /** backups kept (PBX_BACKUP_RETENTION) */
  backupRetention?: number
  clock: Clock
  control?: PbxControl
}) {
  async function reload (module: typeof reloadModules[number]) {
    if (!control) return { success: false, message: NO_AMI, output: '' }
    const output: string[] = []
    try {
      for (const command of reloadCommands[module]) output.push(`> ${command}`, ...await control.command(command))
      return { success: true, message: `Reloaded: ${module}`, output: output.join('\n') }
    } catch (err) {
      return { success: false, message: `Reload failed: ${(err as Error).message}`, output: output.join('\n') }
    }
  }

  return {
    /** the file as it would be written; credentials masked unless `reveal` (an administrator asks) */
    async preview (type: ConfigType, reveal: boolean) {
      const model = await loadPbxModel(repo)
      const content = generators[type].render(reveal ? model : withMaskedCredentials(model))
      return { config_type: type, content, lines_count: content.split('\n').length }
    },

    /** validates, then writes every file atomically with a backup of the previous set; one generation at a time */
    async generate ({ saveToDisk, reloadPbx }: { saveToDisk: boolean, reloadPbx: boolean }) {
      const result = await transaction(async (tx) => {
        await tx.lockGeneration()
        const model = await loadPbxModel(tx)
        const errors = validateModel(model)
        if (errors.length > 0) return { success: false, message: `${errors.length} problems; nothing was written`, files: [], backup_path: null, errors }
        const files = Object.fromEntries(Object.values(generators).map((g) => [g.file, g.render(model)]))
        if (!saveToDisk) return { success: true, message: 'Configuration is valid (save_to_disk=false: nothing written)', files: Object.keys(files).sort(), backup_path: null, errors: [] }
        try {
          const written = await writeConfigSet(configDir, files, clock(), backupRetention)
          return { success: true, message: `${written.files.length} files written`, files: written.files, backup_path: written.backupPath, errors: [] }
        } catch (err) {
          return { success: false, message: 'Writing the configuration failed; the previous files are in place', files: [], backup_path: null, errors: [(err as Error).message] }
        }
      })
      if (!result.success || !reloadPbx || !saveToDisk) return result
      const reloaded = await reload('all')
      return reloaded.success
        ? { ...result, message: `${result.message}; Asterisk reloaded` }
        : { ...result, success: false, message: `${result.message}; reload failed`, errors: [reloaded.message] }
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
