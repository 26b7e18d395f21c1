// The PBX configuration applies itself (issue 51). Each organization's part of pjsip.conf,
// queues.conf and extensions.conf is a file of its own (`orgs/<prefix>/<file>`), included by the
// main files; the triggers of migration 0055 give an organization a new version whenever a row its
// files are written from changes. An apply re-renders the organizations whose version is not the
// one on disk, validates each on its own (one that is invalid keeps its last good files and is
// named with the reason), writes only the files whose text changed, and asks Asterisk for the
// reloads those files need: `res_pjsip` for endpoints, `queue reload` for queues, `dialplan reload`
// for contexts. What was written but not reloaded is kept in the database until Asterisk answers.
import type { Transactional } from '../../db/client.js'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { removeTreeLeftovers, writeConfigTree } from '../../integrations/asterisk-files/index.js'
import { syncSounds } from '../../integrations/asterisk-files/sounds.js'
import type { Clock } from '../../lib/clock.js'
import { PBX_SCOPE_EVERY_ORGANIZATION, PBX_SCOPE_SHARED } from '../../db/schema/pbx.js'
import { promptFiles } from './call-flow.js'
import { configFiles, flowOf, organizationProblems, sipTrunks, validateModel, type ConfigFileName, type PbxOptions, type PbxOrganization } from './generators.js'
import { loadPbxModel } from './model.js'
import type { PbxRepo, PbxTxRepo, ScopeApplied, ScopeVersion } from './repo.js'
import { sharedTrunkProblems } from './trunk-config.js'

export type ReloadModule = 'pjsip' | 'dialplan' | 'queues'
export const RELOAD_COMMANDS: Record<ReloadModule, string> = { pjsip: 'module reload res_pjsip.so', dialplan: 'dialplan reload', queues: 'queue reload all' }

const TRUNKS_FILE = 'pjsip-trunks.conf'
const MAIN_FILES = Object.keys(configFiles) as ConfigFileName[]

/** which reload a written file needs */
const moduleOf = (path: string): ReloadModule => (path.endsWith('extensions.conf') ? 'dialplan' : path.endsWith('queues.conf') ? 'queues' : 'pjsip')

export interface ApplyPlaces {
  /** where the files are written (PBX_CONFIG_DIR) */
  configDir: string
  /** the same folder as Asterisk sees it: the main files include the organizations' files by this path */
  asteriskConfigDir: string
  soundsDir: string
  backupRetention: number
}

/** what one apply came to */
export interface ApplyResult {
  outcome: 'unchanged' | 'written' | 'partly_written' | 'write_failed'
  /** the files whose text changed, relative to the folder */
  changed: string[]
  backupPath: string | null
  /** the organizations (and the shared part) refused this time, with why */
  refused: { scope: number, prefix: string | null, problem: string }[]
  error?: string
  /** the prompts' sound files written and removed */
  sounds?: { written: number, removed: number }
}

const text = (lines: string[]) => `${lines.join('\n')}\n`

/** what an apply renders and writes: pure over the rows loaded, so a full generation and an incremental one meet */
function plan (versions: Map<number, ScopeVersion>, active: { id: number, prefix: string }[], model: PbxOrganization[], trunks: Parameters<typeof sipTrunks>[0], settings: PbxOptions, places: ApplyPlaces) {
  const write = new Map<string, string>()
  const remove: string[] = []
  const applied: ScopeApplied[] = []
  const refused: ApplyResult['refused'] = []
  const gone: number[] = []
  const versionOf = (scope: number) => versions.get(scope)?.version ?? 0
  const onDisk = new Map<number, string>() // organization → the prefix its files are under after this apply
  for (const v of versions.values()) if (v.scope > 0 && v.prefix !== null) onDisk.set(v.scope, v.prefix)
  const filesOf = (prefix: string) => MAIN_FILES.map((name) => `orgs/${prefix}/${name}`)

  for (const org of model) {
    const problems = organizationProblems(org, trunks)
    const before = onDisk.get(org.id)
    if (problems.length > 0) {
      const problem = problems.join('; ')
      refused.push({ scope: org.id, prefix: org.prefix, problem })
      // its last good files stay, unless they are under another prefix (renumbered: they name contexts that are no longer its)
      if (before !== undefined && before !== org.prefix) { remove.push(...filesOf(before)); onDisk.delete(org.id) }
      applied.push({ scope: org.id, version: versionOf(org.id), prefix: onDisk.get(org.id) ?? null, problem })
      continue
    }
    if (before !== undefined && before !== org.prefix) remove.push(...filesOf(before))
    for (const name of MAIN_FILES) write.set(`orgs/${org.prefix}/${name}`, text(configFiles[name].of(org, settings)))
    onDisk.set(org.id, org.prefix)
    applied.push({ scope: org.id, version: versionOf(org.id), prefix: org.prefix, problem: null })
  }
  const activeIds = new Set(active.map((o) => o.id))
  for (const v of versions.values()) {
    if (v.scope <= 0 || activeIds.has(v.scope)) continue
    if (v.prefix !== null) remove.push(...filesOf(v.prefix))
    onDisk.delete(v.scope)
    gone.push(v.scope)
  }

  // the shared parts: the trunks (a file of their own, kept as it was while they have a problem) and the main files
  const sharedProblems = sharedTrunkProblems(trunks, new Set(active.map((o) => o.prefix)))
  if (sharedProblems.length > 0) refused.push({ scope: PBX_SCOPE_SHARED, prefix: null, problem: sharedProblems.join('; ') })
  else write.set(TRUNKS_FILE, text(sipTrunks(trunks)))
  const included = [...new Set(onDisk.values())].sort()
  const include = (path: string) => `#include ${places.asteriskConfigDir}/${path}`
  for (const name of MAIN_FILES) {
    const file = configFiles[name]
    write.set(name, text([...file.shared(), ...(name === 'pjsip.conf' ? [include(TRUNKS_FILE)] : []), ...included.map((p) => include(`orgs/${p}/${name}`)), '', ...file.tail(settings)]))
  }
  applied.push({ scope: PBX_SCOPE_SHARED, version: versionOf(PBX_SCOPE_SHARED), prefix: null, problem: sharedProblems.length > 0 ? sharedProblems.join('; ') : null })
  applied.push({ scope: PBX_SCOPE_EVERY_ORGANIZATION, version: versionOf(PBX_SCOPE_EVERY_ORGANIZATION), prefix: null, problem: null })
  return { write, remove, applied, refused, gone }
}

export function createPbxApplier ({ repo, transaction, places, clock, control, options, reloaded }: {
  repo: PbxRepo
  transaction: Transactional<PbxTxRepo>
  places: ApplyPlaces
  clock: Clock
  control?: PbxControl
  /** the generators' options of the moment (the calendar, the recordings' folder) */
  options: () => Promise<PbxOptions>
  /** after the dialplan was reloaded: what lives in Asterisk's database is put back (the lines' switches) */
  reloaded?: () => Promise<void>
}) {
  /** renders what moved (everything when `full`) and writes the files whose text changed (every file when `full`) */
  async function write (full: boolean): Promise<ApplyResult> {
    const settings = await options()
    const result = await transaction(async (tx) => {
      await tx.lockGeneration()
      // the versions first: a row committed after this is rendered now or by the next apply, never lost
      const versions = new Map((await tx.versions()).map((v) => [v.scope, v]))
      const active = await tx.activeOrganizations()
      const moved = (scope: number) => { const v = versions.get(scope); return !v || v.applied !== v.version }
      const everything = full || moved(PBX_SCOPE_EVERY_ORGANIZATION)
      const toRender = new Set(active.filter((o) => everything || moved(o.id)).map((o) => o.id))
      const { organizations: model, trunks } = await loadPbxModel(tx, (id) => toRender.has(id))
      const planned = plan(versions, active, model, trunks, { ...settings, trunks }, places)
      if (full) await removeTreeLeftovers(places.configDir)
      let written: { changed: string[], backupPath: string | null }
      const sounds = { written: 0, removed: 0 }
      const count = (synced: { written: number, removed: number }) => { sounds.written += synced.written; sounds.removed += synced.removed }
      try {
        written = await writeConfigTree(places.configDir, { write: planned.write, remove: planned.remove, force: full }, clock(), places.backupRetention)
        for (const org of model) if (!planned.refused.some((r) => r.scope === org.id)) count(await syncOrganizationSounds(tx, org))
        for (const scope of planned.gone) {
          const prefix = versions.get(scope)?.prefix
          if (prefix) count(await syncSounds(places.soundsDir, [], async () => undefined, soundsManifest(prefix)))
        }
      } catch (err) {
        return { outcome: 'write_failed' as const, changed: [], backupPath: null, refused: planned.refused, error: (err as Error).message }
      }
      await tx.markApplied(planned.applied)
      for (const scope of planned.gone) await tx.forget(scope)
      const reloads = [...new Set(written.changed.map(moduleOf))]
      if (reloads.length > 0) await tx.written(reloads, clock())
      else await tx.appliedNothing(clock())
      const outcome = planned.refused.length > 0 ? 'partly_written' as const : written.changed.length > 0 ? 'written' as const : 'unchanged' as const
      return { outcome, changed: written.changed, backupPath: written.backupPath, refused: planned.refused, sounds }
    })
    if (result.error) await repo.failed(`writing the configuration failed: ${result.error}`, clock())
    return result
  }

  const soundsManifest = (prefix: string) => `appeals-sounds/org${prefix}.json`
  async function syncOrganizationSounds (tx: PbxTxRepo, org: PbxOrganization) {
    const flow = flowOf(org)
    return syncSounds(places.soundsDir, flow ? promptFiles(flow) : [], (f) => tx.recording(f.promptId, f.language), soundsManifest(org.prefix))
  }

  /** the reloads the files on disk still need; answers what Asterisk said, or why it could not */
  async function reloadPending (): Promise<{ reloaded: ReloadModule[], error?: string }> {
    const state = await repo.state()
    const pending = state.pending_reloads as ReloadModule[]
    if (pending.length === 0) return { reloaded: [] }
    if (!control) return { reloaded: [], error: 'Asterisk Manager Interface is not configured' }
    try {
      for (const module of pending) await control.reload(RELOAD_COMMANDS[module])
    } catch (err) {
      const error = `Asterisk did not reload: ${(err as Error).message}`
      await repo.failed(error, clock())
      return { reloaded: [], error }
    }
    await repo.reloaded(state.write_seq)
    if (pending.includes('dialplan')) await reloaded?.().catch(() => {})
    return { reloaded: pending }
  }

  return {
    write,
    reloadPending,
    /** a dry run: every organization's problems, nothing written */
    async check (): Promise<string[]> {
      const { organizations, trunks } = await loadPbxModel(repo)
      return validateModel(organizations, trunks)
    },
  }
}

export type PbxApplier = ReturnType<typeof createPbxApplier>

/**
 * Applies changes as they come: a burst of edits is coalesced into one apply, begun `quietMs` after
 * the last edit and at most `maxDelayMs` after the first; one apply at a time on this instance, and
 * across instances by the generation's lock. `check` (every few seconds on the leading instance)
 * picks up what a lost notification, a restart or Asterisk not answering left pending.
 */
export function createAutoApply ({ applier, pending, onError, quietMs = 200, maxDelayMs = 600 }: {
  applier: Pick<PbxApplier, 'write' | 'reloadPending'>
  /** whether something waits: a version not applied, or a reload not done */
  pending: () => Promise<boolean>
  onError: (err: unknown) => void
  quietMs?: number
  maxDelayMs?: number
}) {
  let timer: NodeJS.Timeout | undefined
  let firstAt: number | undefined
  let running: Promise<void> | undefined
  let again = false
  let stopped = false
  let applies = 0

  function changed () {
    if (stopped) return
    if (running) { again = true; return }
    const now = Date.now()
    firstAt ??= now
    clearTimeout(timer)
    timer = setTimeout(run, Math.max(0, Math.min(quietMs, firstAt + maxDelayMs - now)))
  }

  function run () {
    firstAt = undefined
    timer = undefined
    applies++
    running = (async () => {
      const written = await applier.write(false)
      if (written.outcome !== 'write_failed') await applier.reloadPending()
    })().catch(onError).finally(() => {
      running = undefined
      if (again) { again = false; changed() }
    })
  }

  return {
    changed,
    async check () { if (!running && !timer && !stopped && await pending().catch(() => false)) changed() },
    get applying () { return running !== undefined || timer !== undefined },
    /** applies begun since the start (the benchmark counts them) */
    get applies () { return applies },
    async stop () { stopped = true; clearTimeout(timer); await running },
  }
}
