// The providers' trunks in pjsip.conf and the organizations' outbound routes in their contexts
// (issue 49): a trunk is an endpoint, an aor with the provider's address, and by registration an
// outbound auth (its digests) and a registration, by IP an identify of its addresses; a route's
// pattern dials its trunks in order, going on to the next while one is unavailable or congested.
import type { RouteForPbx, TrunkForPbx } from '../trunks/queries.js'
import { trunkName } from '../trunks/service.js'
import { nationalDigits, numberFor, patternRegExp } from '../trunks/dial-patterns.js'
import { comment } from './config-text.js'

export type PbxTrunk = TrunkForPbx
export type PbxRoute = RouteForPbx

/** whether a trunk's transport is TCP: its URIs say so */
const uriOf = (t: PbxTrunk, user?: string) => `sip:${user ? `${user}@` : ''}${t.host}:${t.port}${t.transport === 'transport-tcp' ? ';transport=tcp' : ''}`

/** a trunk's sections (one string) */
export function trunkSections (t: PbxTrunk): string {
  const name = trunkName(t.id)
  const registered = t.mode === 'registration'
  const digests = [...(t.md5_cred ? [`MD5:${t.md5_cred}`] : []), ...(t.password_digest ? [t.password_digest] : [])]
  const matches = [...new Set([t.host, ...t.match])]
  return `; trunk ${t.id}: ${comment(t.name)}
[${name}]
type=endpoint
transport=${t.transport}
context=${t.context}
disallow=all
allow=${t.codecs}
direct_media=no
rtp_symmetric=yes
force_rport=yes
rewrite_contact=yes
language=ru
aors=${name}
${registered ? `outbound_auth=${name}\nfrom_user=${t.username}\nfrom_domain=${t.realm}\n` : ''}
[${name}]
type=aor
contact=${uriOf(t)}
qualify_frequency=60
${registered
    ? `
[${name}]
type=auth
auth_type=digest
username=${t.username}
realm=${t.realm}
${digests.map((d) => `password_digest=${d}\n`).join('')}
[${name}]
type=registration
transport=${t.transport}
outbound_auth=${name}
server_uri=${uriOf(t)}
client_uri=${uriOf(t, t.username!)}
contact_user=${t.username}
expiration=600
retry_interval=30
forbidden_retry_interval=300
max_retries=10000
line=yes
endpoint=${name}
`
    : ''}${registered && t.match.length === 0
    ? ''
    : `
[${name}]
type=identify
endpoint=${name}
match=${(registered ? t.match : matches).join(',')}
`}`
}

/**
 * A call the service places (issue 50) rings the user's terminal showing the citizen's number, then
 * runs here with APPEALS_CALLER set: the number is dialled with the terminal's own caller id, as when
 * the terminal dials it itself.
 */
export const PLACED_CALLER_STEP = ' same => n,ExecIf($["${APPEALS_CALLER}" != ""]?Set(CALLERID(all)=<${APPEALS_CALLER}>))'

/** the statuses on which the next trunk of a route is tried */
const FAILOVER = '$["${DIALSTATUS}" != "CHANUNAVAIL" & "${DIALSTATUS}" != "CONGESTION"]'

/**
 * An organization's outbound routes as extensions of its internal context: each pattern refuses
 * a terminal without long-distance calls where the route needs them, keeps the terminal's own caller
 * id or gives the trunk's, and dials the trunks in order.
 */
export function routeDialplan (org: { areaCode: string | null, localDigits: number | null }, routes: PbxRoute[], trunks: Map<number, PbxTrunk>, recordWith?: string): string[] {
  const lines: string[] = []
  for (const route of routes) {
    lines.push(`; outbound route ${route.id}: ${comment(route.name)}`)
    for (const pattern of route.patterns) {
      const digits = nationalDigits(pattern, org)
      lines.push(`exten => _${pattern},1,NoOp(route ${route.id})`)
      if (route.long_distance) lines.push(' same => n,ExecIf($["${ALLOW_LONG_DISTANCE}" != "yes"]?Congestion(5))')
      lines.push(PLACED_CALLER_STEP)
      lines.push(' same => n,Set(APPEALS_CLI=${IF($["${OUTGOING_CLI}" != ""]?${OUTGOING_CLI}:${CALLERID(num)})})')
      for (const id of route.trunkIds) {
        const trunk = trunks.get(id)
        if (!trunk) continue
        lines.push(` same => n,Set(CALLERID(num)=${trunk.caller_id ? `\${IF($["\${OUTGOING_CLI}" != ""]?\${OUTGOING_CLI}:${trunk.caller_id})}` : '${APPEALS_CLI}'})`,
          ` same => n,Dial(PJSIP/${numberFor(trunk.number_format, digits)}@${trunkName(id)}${recordWith ? `,,U(${recordWith})` : ''})`,
          ` same => n,GotoIf(${FAILOVER}?done)`)
      }
      lines.push(' same => n(done),Hangup()')
    }
  }
  return lines.length > 0 ? [...lines, ''] : []
}

/** what in the trunks and routes would make Asterisk refuse them or route a call elsewhere than meant */
export function trunkProblems (orgs: { prefix: string, terminals: { extension: string }[], outboundRoutes?: PbxRoute[] }[], trunks: PbxTrunk[]): string[] {
  return [...sharedTrunkProblems(trunks, new Set(orgs.map((o) => o.prefix))), ...orgs.flatMap((org) => routeProblems(org, trunks))]
}

/** the trunks' own problems (pjsip.conf's shared part) */
export function sharedTrunkProblems (trunks: PbxTrunk[], activePrefixes: Set<string>): string[] {
  const errors: string[] = []
  for (const t of trunks) {
    const prefix = /^org([0-9]+)-internal$/.exec(t.context)?.[1]
    if (prefix !== undefined && !activePrefixes.has(prefix)) errors.push(`trunk ${t.id}: its calls enter ${t.context}, which no active organization has`)
    if (t.mode === 'registration' && !t.md5_cred) errors.push(`trunk ${t.id}: a registration trunk without a password`)
  }
  return errors
}

/** an organization's outbound routes' problems */
export function routeProblems (org: { prefix: string, terminals: { extension: string }[], outboundRoutes?: PbxRoute[] }, trunks: PbxTrunk[]): string[] {
  const errors: string[] = []
  const known = new Set(trunks.map((t) => t.id))
  const extensions = ['0', ...org.terminals.map((t) => t.extension)]
  for (const route of org.outboundRoutes ?? []) {
    if (!route.trunkIds.some((id) => known.has(id))) errors.push(`organization ${org.prefix}: outbound route ${route.id} has no trunk`)
    for (const p of route.patterns) {
      const shadowed = extensions.find((e) => patternRegExp(p).test(e))
      if (shadowed !== undefined) errors.push(`organization ${org.prefix}: outbound route ${route.id}'s pattern ${p} takes the extension ${shadowed}, which internal dialling keeps`)
    }
  }
  return errors
}
