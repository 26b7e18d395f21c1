// The PBX configuration applies itself (issue 51). Each organization's part of pjsip.conf,
// queues.conf and extensions.conf is a file of its own (`orgs/<prefix>/<file>`), included by the
// main files; the triggers of migration 0055 give an organization a new version whenever a row its
// files are written from changes. An apply re-renders the organizations whose version is not the
// one on disk (a full generation also those whose files on disk are not what was written for that
// version: a digest of them is kept with it), validates each on its own (one that is invalid keeps
// its last good files and is named with the reason), writes only the files whose text changed, and asks Asterisk for the
// reloads those files need: `res_pjsip` for endpoints, `queue reload` for queues, `dialplan reload`
// for contexts. What was written but not reloaded is kept in the database until Asterisk answers.
import type { FastifyBaseLogger } from 'fastify'
import type { Transactional } from '../../db/client.js'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { PbxControl } from '../../integrations/ami/pbx-control.js'
import { createHash } from 'node:crypto'
import { digestOf, openConfigTree, removeTreeLeftovers } from '../../integrations/asterisk-files/index.js'
import { syncSounds } from '../../integrations/asterisk-files/sounds.js'
import type { AsteriskLog, AsteriskLogLine } from '../../integrations/asterisk-log/index.js'
import type { Clock } from '../../lib/clock.js'
import { untilAborted } from '../../lib/abort.js'
import { PBX_SCOPE_EVERY_ORGANIZATION, PBX_SCOPE_SHARED } from '../../db/schema/pbx.js'
import { promptFiles } from './call-flow.js'
import { configFiles, flowOf, organizationProblems, sipTrunks, validateModel, type ConfigFileName, type PbxOptions, type PbxOrganization } from './generators.js'
import { loadPbxModel, loadPbxOrganizations, loadPbxShared, type PbxShared } from './model.js'
import { serviceVersion } from '../../lib/version.js'
import type { PbxRepo, PbxTxRepo, ScopeApplied } from './repo.js'
import { sharedTrunkProblems } from './trunk-config.js'
import { attributeRefusals } from './asterisk-refusals.js'

export type ReloadModule = 'pjsip' | 'dialplan' | 'queues'
export const RELOAD_COMMANDS: Record<ReloadModule, string> = { pjsip: 'module reload res_pjsip.so', dialplan: 'dialplan reload', queues: 'queue reload all' }
const EVERY_MODULE: ReloadModule[] = ['dialplan', 'pjsip', 'queues']

const TRUNKS_FILE = 'pjsip-trunks.conf'
/** under the sounds folder: which prompts each organization has there */
const SOUNDS_MANIFESTS = 'appeals-sounds'
const MAIN_FILES = Object.keys(configFiles) as ConfigFileName[]

/** a file's bytes: its lines, each ended by a newline */
const fileOf = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`)

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

/** an organization's three files, or why it cannot have them */
function renderOrganization (org: PbxOrganization, settings: PbxOptions): { files: [string, Buffer][] } | { problem: string } {
  const problems = organizationProblems(org, settings.trunks ?? [], settings.network)
  if (problems.length > 0) return { problem: problems.join('; ') }
  return { files: MAIN_FILES.map((name) => [`orgs/${org.prefix}/${name}`, fileOf(configFiles[name].of(org, settings))]) }
}

const filesOf = (prefix: string) => MAIN_FILES.map((name) => `orgs/${prefix}/${name}`)

/** the main files: the shared parts and an include of each organization's own files */
function mainFiles (prefixes: string[], settings: PbxOptions, places: ApplyPlaces): [string, Buffer][] {
  const include = (path: string) => `#include ${places.asteriskConfigDir}/${path}`
  return MAIN_FILES.map((name) => {
    const file = configFiles[name]
    return [name, fileOf([...file.shared(settings), ...(name === 'pjsip.conf' ? [include(TRUNKS_FILE)] : []), ...prefixes.map((p) => include(`orgs/${p}/${name}`)), '', ...file.tail(settings)])]
  })
}

/**
 * What the organizations' text is made of besides the rows (the rows every organization reads move
 * scope -1), as a digest's salt: the service's version and the settings, of the calendar its zone
 * alone (its hours and days are the shared file's, so an edit of them renders no organization).
 */
const renderingSalt = (settings: PbxOptions) =>
  createHash('sha256').update(`${serviceVersion}\n${JSON.stringify({ ...settings, calendar: settings.calendar?.timeZone ?? null })}`).digest('hex')

/** organizations rendered together: their rows are read while the ones before are rendered and written */
const BATCH = 100

export function createPbxApplier ({ repo, transaction, exclusively, places, clock, control, asteriskLog, options, reloaded, log }: {
  repo: PbxRepo
  transaction: Transactional<PbxTxRepo>
  /** `work` while no other instance applies (a lock that holds none of the requests' connections) */
  exclusively: <T>(work: () => Promise<T>) => Promise<T>
  log?: Pick<FastifyBaseLogger, 'error'>
  places: ApplyPlaces
  clock: Clock
  control?: PbxControl
  /** where Asterisk says what it refused (PBX_ASTERISK_LOG) */
  asteriskLog?: AsteriskLog
  /** the generators' options of the moment (the calendar, the recordings' folder) */
  options: () => Promise<PbxOptions>
  /** after the dialplan was reloaded: what lives in Asterisk's database is put back (the lines' switches) */
  reloaded?: () => Promise<void>
}) {
  // a stopping service does not wait for a reload Asterisk has not answered (up to AMI_RELOAD_TIMEOUT):
  // it stays pending in the database, and the next leader does it
  const stopping = new AbortController()

  /**
   * Renders what moved (every organization, after a start with other settings or another version
   * of the service) and writes the files whose text changed. `full` (a generation): also renders
   * every organization whose files on disk are not the ones written for its version (changed by
   * hand or lost), and backs up the whole set.
   */
  async function write (full: boolean): Promise<ApplyResult> {
    const settings = await options()
    // one apply at a time across instances, under a lock that holds no connection the requests need:
    // the database is read, the files written and synced, then the versions marked, each on its own
    const result = await exclusively(() => writeFiles(full, settings))
    if (result.error) await repo.failed(`writing the configuration failed: ${result.error}`, clock())
    return result
  }

  async function writeFiles (full: boolean, settings: PbxOptions): Promise<ApplyResult> {
    // the versions first: a row committed after this is rendered now or by the next apply, never lost
    const { versions, shared } = await transaction(async (tx) => ({ versions: new Map((await tx.versions()).map((v) => [v.scope, v])), shared: await loadPbxShared(tx) }))
    const withTrunks = { ...settings, trunks: shared.trunks }
    const moved = (scope: number) => { const v = versions.get(scope); return !v || v.applied !== v.version }
    const versionOf = (scope: number) => versions.get(scope)?.version ?? 0
    // organization → the prefix its files are under once this apply is done
    const onDisk = new Map<number, string>()
    for (const v of versions.values()) if (v.scope > 0 && v.prefix !== null) onDisk.set(v.scope, v.prefix)
    const applied: ScopeApplied[] = []
    const refused: ApplyResult['refused'] = []
    const sounds = { written: 0, removed: 0 }
    const soundsOf: PbxOrganization[] = []
    const count = (synced: { written: number, removed: number }) => { sounds.written += synced.written; sounds.removed += synced.removed }
    if (full) await removeTreeLeftovers(places.configDir)
    const tree = openConfigTree(places.configDir, { backupAll: full, keepBackups: places.backupRetention })
    // a digest made with other settings, or by another version, is not theirs
    const salt = renderingSalt(settings)
    /** its files on disk are the ones its version was rendered to (a full generation renders what was changed by hand or lost) */
    const intact = (org: PbxShared['active'][number]) => {
      const v = versions.get(org.id)
      return v !== undefined && v.problem === null && v.files_digest !== null && v.prefix === org.prefix && tree.intact(filesOf(org.prefix), salt, v.files_digest)
    }
    // every organization, when a row they all read changed, or when they were last rendered with other settings or by another version (a restart, an upgrade)
    const everything = moved(PBX_SCOPE_EVERY_ORGANIZATION) || versions.get(PBX_SCOPE_EVERY_ORGANIZATION)?.files_digest !== salt
    const toRender = shared.active.filter((o) => everything || moved(o.id) || (full && !intact(o)))
    const batches = Array.from({ length: Math.ceil(toRender.length / BATCH) }, (_, i) => toRender.slice(i * BATCH, (i + 1) * BATCH))
    let next = batches.length > 0 ? loadPbxOrganizations(repo, shared, batches[0]!) : undefined
    try {
      for (let b = 0; b < batches.length; b++) {
        const model = await next!
        next = b + 1 < batches.length ? loadPbxOrganizations(repo, shared, batches[b + 1]!) : undefined
        for (const org of model) {
          const before = onDisk.get(org.id)
          const rendered = renderOrganization(org, withTrunks)
          // renumbered: the files under the old prefix name contexts that are no longer its
          if (before !== undefined && before !== org.prefix) { for (const path of filesOf(before)) tree.remove(path); onDisk.delete(org.id) }
          if ('problem' in rendered) {
            refused.push({ scope: org.id, prefix: org.prefix, problem: rendered.problem })
            const kept = onDisk.get(org.id)
            applied.push({ scope: org.id, version: versionOf(org.id), prefix: kept ?? null, problem: rendered.problem, files_digest: kept === undefined ? null : versions.get(org.id)?.files_digest ?? null })
            continue
          }
          for (const [path, content] of rendered.files) await tree.put(path, content)
          onDisk.set(org.id, org.prefix)
          applied.push({ scope: org.id, version: versionOf(org.id), prefix: org.prefix, problem: null, files_digest: digestOf(salt, rendered.files.map(([, bytes]) => bytes)) })
          soundsOf.push(org)
        }
      }
      // the prompts of the organizations that have some, or had (their manifest): one after another, each recording read when it is written
      const manifests = await soundManifests()
      for (const org of soundsOf) {
        const flow = flowOf(org)
        const files = flow ? promptFiles(flow) : []
        if (files.length > 0 || manifests.has(org.prefix)) count(await syncSounds(places.soundsDir, files, (f) => repo.recording(f.promptId, f.language), soundsManifest(org.prefix)))
      }
      // organizations gone (deleted, deactivated, their tenant suspended): their files and prompts go
      const activeIds = new Set(shared.active.map((o) => o.id))
      const gone = [...versions.values()].filter((v) => v.scope > 0 && !activeIds.has(v.scope))
      for (const v of gone) {
        if (v.prefix !== null) {
          for (const path of filesOf(v.prefix)) tree.remove(path)
          count(await syncSounds(places.soundsDir, [], async () => undefined, soundsManifest(v.prefix)))
        }
        onDisk.delete(v.scope)
      }
      // the shared parts: the trunks (kept as they were while they have a problem) and the main files
      const sharedProblems = sharedTrunkProblems(shared.trunks, new Set(shared.active.map((o) => o.prefix)))
      if (sharedProblems.length > 0) refused.push({ scope: PBX_SCOPE_SHARED, prefix: null, problem: sharedProblems.join('; ') })
      else await tree.put(TRUNKS_FILE, fileOf(sipTrunks(shared.trunks)))
      for (const [path, content] of mainFiles([...new Set(onDisk.values())].sort(), settings, places)) await tree.put(path, content)
      const written = await tree.commit(clock())

      applied.push({ scope: PBX_SCOPE_SHARED, version: versionOf(PBX_SCOPE_SHARED), prefix: null, problem: sharedProblems.length > 0 ? sharedProblems.join('; ') : null })
      applied.push({ scope: PBX_SCOPE_EVERY_ORGANIZATION, version: versionOf(PBX_SCOPE_EVERY_ORGANIZATION), prefix: null, problem: null, files_digest: salt })
      const reloads = [...new Set(written.changed.map(moduleOf))]
      await transaction(async (tx) => {
        await tx.markApplied(applied)
        for (const v of gone) await tx.forget(v.scope)
        if (reloads.length > 0) await tx.written(reloads, clock())
        else await tx.appliedNothing(clock())
      })
      const outcome = refused.length > 0 ? 'partly_written' as const : written.changed.length > 0 ? 'written' as const : 'unchanged' as const
      return { outcome, changed: written.changed, backupPath: written.backupPath, refused, sounds }
    } catch (err) {
      await next?.catch(() => {})
      await tree.abort()
      // the answer says it in words; the log keeps the stack
      log?.error({ err }, 'writing the PBX configuration failed')
      return { outcome: 'write_failed' as const, changed: [], backupPath: null, refused, error: (err as Error).message }
    }
  }

  const soundsManifest = (prefix: string) => `${SOUNDS_MANIFESTS}/org${prefix}.json`
  /** the organizations whose prompts were written (each has a manifest) */
  const soundManifests = async () => new Set((await readdir(join(places.soundsDir, SOUNDS_MANIFESTS)).catch(() => [] as string[]))
    .map((name) => /^org(\d+)\.json$/.exec(name)?.[1]).filter((p): p is string => p !== undefined))

  /**
   * The modules reloaded, one after another, then what Asterisk logged meanwhile read once (the
   * reloads do not wait for the log) and kept as what each reload refused; answers Asterisk's output.
   */
  async function reloadModules (pbx: PbxControl, modules: ReloadModule[]): Promise<string[][]> {
    const mark = await asteriskLog?.mark()
    const outputs: string[][] = []
    for (const module of modules) outputs.push(await untilAborted(pbx.reload(RELOAD_COMMANDS[module]), stopping.signal))
    // a log that cannot be read (moved, its permissions changed) says nothing: the reloads were done all the same
    const lines = asteriskLog && mark !== undefined ? await asteriskLog.since(mark).catch(() => undefined) : undefined
    if (lines) await heardRefusals(modules, lines)
    return outputs
  }

  /** what Asterisk logged while it reloaded `modules`, said of the organizations whose files it names */
  async function heardRefusals (modules: ReloadModule[], lines: AsteriskLogLine[]) {
    const organizations = new Map<string, number>()
    for (const v of await repo.versions()) if (v.scope > 0 && v.prefix !== null) organizations.set(v.prefix, v.scope)
    const refusals = attributeRefusals(lines, organizations, places.asteriskConfigDir)
    for (const module of modules) await repo.asteriskRefused(module, refusals.filter((r) => r.module === module), clock())
  }

  /** the reloads the files on disk still need; answers what Asterisk said, or why it could not */
  async function reloadPending ({ every = false } = {}): Promise<{ reloaded: ReloadModule[], error?: string, /** why what lives in Asterisk's database was not put back */ notRestored?: string }> {
    const state = await repo.state()
    // `every`: a generation asked to reload, whether or not its files changed (Asterisk may be new, its database lost)
    const pending = every ? EVERY_MODULE : state.pending_reloads as ReloadModule[]
    if (pending.length === 0) return { reloaded: [] }
    if (!control) return { reloaded: [], error: 'Asterisk Manager Interface is not configured' }
    try {
      await reloadModules(control, pending)
    } catch (err) {
      const error = `Asterisk did not reload: ${(err as Error).message}`
      await repo.failed(error, clock())
      return { reloaded: [], error }
    }
    await repo.reloaded(state.write_seq)
    const restored = pending.includes('dialplan') ? await reloaded?.().then(() => undefined, (err: unknown) => (err as Error).message) : undefined
    return { reloaded: pending, ...(restored === undefined ? {} : { notRestored: restored }) }
  }

  return {
    write,
    reloadPending,
    reloadModules,
    /** the organizations' files were last rendered with other settings or by another version of the service (a restart, an upgrade): the next apply renders them all */
    async renderedOtherwise (): Promise<boolean> {
      const [every] = await repo.versionsOf([PBX_SCOPE_EVERY_ORGANIZATION])
      return every?.files_digest !== renderingSalt(await options())
    },
    /** the service stops: a reload under way is no longer waited for (it fails as not done, and stays pending) */
    stop: () => stopping.abort(new Error('the service stopped before Asterisk answered')),
    /** a dry run: every organization's problems, nothing written */
    async check (): Promise<string[]> {
      const { organizations, trunks } = await loadPbxModel(repo)
      return validateModel(organizations, trunks, (await options()).network)
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
export function createAutoApply ({ applier, pending, onError, quietMs = 100, maxDelayMs = 500 }: {
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
