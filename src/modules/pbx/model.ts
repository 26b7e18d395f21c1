import { groupBy } from '../../lib/collections.js'
import type { PbxOrganization } from './generators.js'
import type { PbxRepo } from './repo.js'

/** The rows the generators need: active organizations, their terminals, their area codes, their call routing. */
export async function loadPbxModel (repo: Pick<PbxRepo, 'activeOrganizations' | 'regions' | 'terminalsOf' | 'routingOf'>): Promise<PbxOrganization[]> {
  const [orgs, regionRows] = await Promise.all([repo.activeOrganizations(), repo.regions()])
  const regions = new Map(regionRows.map((r) => [r.id, r]))
  const areaOf = (regionId: number | null) => {
    for (let r = regionId === null ? undefined : regions.get(regionId), depth = 0; r && depth < 64; r = r.parent_id === null ? undefined : regions.get(r.parent_id), depth++) {
      if (r.phone_code) return { areaCode: r.phone_code, localDigits: r.local_digits ?? 10 - r.phone_code.length }
    }
    return { areaCode: null, localDigits: null }
  }
  const [terminalRows, routing] = await Promise.all([repo.terminalsOf(orgs.map((o) => o.id)), repo.routingOf(orgs.map((o) => o.id))])
  const terminals = groupBy(terminalRows, (t) => t.terminal.organization_id)
  return orgs.map((o) => ({
    id: o.id,
    name: o.name,
    prefix: o.prefix,
    ...areaOf(o.region_id),
    routing: routing.get(o.id),
    terminals: (terminals.get(o.id) ?? []).map(({ terminal: t, endpoint: e, md5_cred, password_digest, realm }) => ({
      id: t.id, extension: t.extension, name: t.name, transport: e.transport ?? 'transport-udp', context: e.context ?? `org${o.prefix}-internal`,
      disallow: e.disallow ?? 'all', allow: e.allow ?? 'alaw,ulaw', direct_media: e.direct_media === 'yes', rtp_symmetric: e.rtp_symmetric === 'yes',
      force_rport: e.force_rport === 'yes', rewrite_contact: e.rewrite_contact === 'yes', language: e.language ?? 'ru', mailboxes: e.mailboxes,
      passwordDigests: passwordDigests(md5_cred, password_digest), realm: realm ?? 'asterisk', outgoing_cli: t.outgoing_cli, allow_long_distance: t.allow_long_distance,
      cf_unconditional_enabled: t.cf_unconditional_enabled, cf_unconditional_dest: t.cf_unconditional_dest,
      cf_unavailable_enabled: t.cf_unavailable_enabled, cf_unavailable_dest: t.cf_unavailable_dest,
      cf_noanswer_enabled: t.cf_noanswer_enabled, cf_noanswer_dest: t.cf_noanswer_dest, cf_noanswer_timeout: t.cf_noanswer_timeout,
      cf_busy_enabled: t.cf_busy_enabled, cf_busy_dest: t.cf_busy_dest,
    })),
  }))
}

/** `MD5:<hex>` and, once the password has been set since SHA-256 digests are kept, `SHA-256:<hex>` */
function passwordDigests (md5: string | null, sha256: string | null): string[] {
  return [...(md5 ? [`MD5:${md5}`] : []), ...(sha256 ? [sha256] : [])]
}

/** the model as an open preview shows it: SIP digests are as good as passwords, so every one is masked */
export function withMaskedCredentials (orgs: PbxOrganization[]): PbxOrganization[] {
  const mask = (digest: string) => digest.replace(/:(.*)$/, (_, hash: string) => `:${'*'.repeat(hash.length)}`)
  return orgs.map((o) => ({ ...o, terminals: o.terminals.map((t) => ({ ...t, passwordDigests: t.passwordDigests.map(mask) })) }))
}
