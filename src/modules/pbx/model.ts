import { groupBy } from '../../lib/collections.js'
import { internalContext } from '../../integrations/asterisk/names.js'
import type { TerminalWithCredentials } from '../endpoints/queries.js'
import type { PbxOrganization, PbxTerminal } from './generators.js'
import type { PbxRepo } from './repo.js'
import type { PbxTrunk } from './trunk-config.js'
import { dialArea } from '../regions/queries.js'

/** what the files are written from */
export interface PbxModel {
  organizations: PbxOrganization[]
  trunks: PbxTrunk[]
}

type ModelRepo = Pick<PbxRepo, 'activeOrganizations' | 'regions' | 'terminalsOf' | 'routingOf' | 'outboundRoutesOf' | 'trunks'>

/** what every organization's files are written with: the active organizations, the regions' area codes, the trunks */
export async function loadPbxShared (repo: ModelRepo) {
  // one after another: in a generation they share the transaction's one connection
  const active = await repo.activeOrganizations()
  const regions = new Map((await repo.regions()).map((r) => [r.id, r]))
  const trunks = await repo.trunks()
  const areaOf = (regionId: number | null) => {
    for (let r = regionId === null ? undefined : regions.get(regionId), depth = 0; r && depth < 64; r = r.parent_id === null ? undefined : regions.get(r.parent_id), depth++) {
      const area = dialArea(r)
      if (area) return area
    }
    return { areaCode: null, localDigits: null }
  }
  return { active, areaOf, trunks }
}
export type PbxShared = Awaited<ReturnType<typeof loadPbxShared>>

/** some active organizations with their terminals, call routing and outbound routes */
export async function loadPbxOrganizations (repo: ModelRepo, shared: PbxShared, orgs: PbxShared['active']): Promise<PbxOrganization[]> {
  if (orgs.length === 0) return []
  const ids = orgs.map((o) => o.id)
  const terminalRows = await repo.terminalsOf(ids)
  const routing = await repo.routingOf(ids)
  const routes = await repo.outboundRoutesOf(ids)
  const terminals = groupBy(terminalRows, (t) => t.organization_id)
  return orgs.map((o) => ({
    id: o.id,
    name: o.name,
    prefix: o.prefix,
    ...shared.areaOf(o.region_id),
    routing: routing.get(o.id),
    terminals: (terminals.get(o.id) ?? []).map((t) => pbxTerminal(t, o.prefix)),
    outboundRoutes: routes.get(o.id),
  }))
}

/** The rows the generators need: active organizations, their terminals, area codes, call routing and outbound routes; the trunks. */
export async function loadPbxModel (repo: ModelRepo): Promise<PbxModel> {
  const shared = await loadPbxShared(repo)
  return { organizations: await loadPbxOrganizations(repo, shared, shared.active), trunks: shared.trunks }
}

/** a terminal's row as the generators write it, Asterisk's defaults filled in (an object literal: 100,000 are made at once) */
function pbxTerminal (t: TerminalWithCredentials, prefix: string): PbxTerminal {
  return {
    id: t.id, extension: t.extension, name: t.name, transport: t.transport ?? 'transport-udp', context: t.context ?? internalContext(prefix),
    disallow: t.disallow ?? 'all', allow: t.allow ?? 'alaw,ulaw', direct_media: t.direct_media === true, rtp_symmetric: t.rtp_symmetric === true,
    force_rport: t.force_rport === true, rewrite_contact: t.rewrite_contact === true, language: t.language ?? 'ru', mailboxes: t.mailboxes,
    passwordDigests: t.phone === 'browser' && t.browser_md5_cred ? [`MD5:${t.browser_md5_cred}`] : passwordDigests(t.md5_cred, t.password_digest), realm: t.realm ?? 'asterisk', outgoing_cli: t.outgoing_cli, allow_long_distance: t.allow_long_distance,
    cf_unconditional_enabled: t.cf_unconditional_enabled, cf_unconditional_dest: t.cf_unconditional_dest,
    cf_unavailable_enabled: t.cf_unavailable_enabled, cf_unavailable_dest: t.cf_unavailable_dest,
    cf_noanswer_enabled: t.cf_noanswer_enabled, cf_noanswer_dest: t.cf_noanswer_dest, cf_noanswer_timeout: t.cf_noanswer_timeout,
    cf_busy_enabled: t.cf_busy_enabled, cf_busy_dest: t.cf_busy_dest, records_prompts: t.records_prompts, phone: t.phone,
  }
}

/** `MD5:<hex>` and, once the password has been set since SHA-256 digests are kept, `SHA-256:<hex>` */
function passwordDigests (md5: string | null, sha256: string | null): string[] {
  return [...(md5 ? [`MD5:${md5}`] : []), ...(sha256 ? [sha256] : [])]
}

/** the model as a preview shows it: SIP digests are as good as passwords, so every one is masked */
export function withMaskedCredentials (model: PbxModel): PbxModel {
  const stars = (hash: string) => '*'.repeat(hash.length)
  const mask = (digest: string) => digest.replace(/:(.*)$/, (_, hash: string) => `:${stars(hash)}`)
  return {
    organizations: model.organizations.map((o) => ({ ...o, terminals: o.terminals.map((t) => ({ ...t, passwordDigests: t.passwordDigests.map(mask) })) })),
    trunks: model.trunks.map((t) => ({ ...t, md5_cred: t.md5_cred && stars(t.md5_cred), password_digest: t.password_digest && mask(t.password_digest) })),
  }
}
