import { and, asc, count, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { selectRows, selectTuples, type AppDb } from '../../db/client.js'
import { psAuths, psEndpoints, sipTerminals } from '../../db/schema/index.js'
import { managesRouting } from '../employees/queries.js'

/* What other modules may ask of the terminal tables (Asterisk's ps_* and sip_terminals; their owner is this module). */

/** terminals of the organization, correlated to the caller's row */
export const terminalCountOf = async (db: AppDb, organizationId: number) =>
  (await db.select({ n: count() }).from(sipTerminals).where(eq(sipTerminals.organization_id, organizationId)))[0]!.n

/** which of these ids are terminals of the organization */
export const terminalIdsIn = async (db: AppDb, organizationId: number, ids: string[]) => ids.length === 0
  ? []
  : (await db.select({ id: sipTerminals.id }).from(sipTerminals).where(and(eq(sipTerminals.organization_id, organizationId), inArray(sipTerminals.id, ids)))).map((t) => t.id)

/** the terminals employees work at, with their organization: of one employee, of an organization's, or of everyone's */
export const employeeTerminals = (db: AppDb, of: { employeeId?: number, organizationId?: number }) =>
  db.select({ id: sipTerminals.id, employee_id: sipTerminals.employee_id, organization_id: sipTerminals.organization_id }).from(sipTerminals)
    .where(and(isNotNull(sipTerminals.employee_id), of.employeeId === undefined ? undefined : eq(sipTerminals.employee_id, of.employeeId),
      of.organizationId === undefined ? undefined : eq(sipTerminals.organization_id, of.organizationId)))
    .orderBy(asc(sipTerminals.id))

/** whose terminal this is: its organization and employee */
export const terminalOwner = async (db: AppDb, id: string) =>
  (await db.select({ id: sipTerminals.id, organization_id: sipTerminals.organization_id, employee_id: sipTerminals.employee_id })
    .from(sipTerminals).where(eq(sipTerminals.id, id)))[0]

/** terminals as a subquery to join (`terminal.id`, `terminal.name`, `terminal.organization_id`, `terminal.employee_id`) */
export const terminalDirectory = (db: AppDb) =>
  db.select({ id: sipTerminals.id, name: sipTerminals.name, organization_id: sipTerminals.organization_id, employee_id: sipTerminals.employee_id, phone: sipTerminals.phone })
    .from(sipTerminals).as('terminal')

/** the ids of an organization's terminals, as a subquery */
export const terminalIdsOf = (db: AppDb, organizationId: number) =>
  db.select({ id: sipTerminals.id }).from(sipTerminals).where(eq(sipTerminals.organization_id, organizationId))

/** a terminal as the PBX's files write it: its endpoint's options as stored (null: Asterisk's default) and its digests */
export interface TerminalWithCredentials {
  id: string
  organization_id: number
  extension: string
  name: string
  transport: string | null
  context: string | null
  disallow: string | null
  allow: string | null
  direct_media: boolean | null
  rtp_symmetric: boolean | null
  force_rport: boolean | null
  rewrite_contact: boolean | null
  language: string | null
  mailboxes: string | null
  md5_cred: string | null
  password_digest: string | null
  realm: string | null
  outgoing_cli: string | null
  allow_long_distance: boolean
  cf_unconditional_enabled: boolean
  cf_unconditional_dest: string | null
  cf_unavailable_enabled: boolean
  cf_unavailable_dest: string | null
  cf_noanswer_enabled: boolean
  cf_noanswer_dest: string | null
  cf_noanswer_timeout: number
  cf_busy_enabled: boolean
  cf_busy_dest: string | null
  phone: 'desk' | 'browser'
  /** the browser phone's key (sip_terminals.browser_md5_cred); null: no browser registers it */
  browser_md5_cred: string | null
  /** its employee may record the organization's prompts by phone: an active admin, or the organization's manager */
  records_prompts?: boolean
}

type TerminalTuple = [id: string, organization_id: number, extension: string, name: string, transport: string | null, context: string | null,
  disallow: string | null, allow: string | null, direct_media: boolean | null, rtp_symmetric: boolean | null, force_rport: boolean | null,
  rewrite_contact: boolean | null, language: string | null, mailboxes: string | null, md5_cred: string | null, password_digest: string | null,
  realm: string | null, outgoing_cli: string | null, allow_long_distance: boolean, cf_unconditional_enabled: boolean, cf_unconditional_dest: string | null,
  cf_unavailable_enabled: boolean, cf_unavailable_dest: string | null, cf_noanswer_enabled: boolean, cf_noanswer_dest: string | null,
  cf_noanswer_timeout: number, cf_busy_enabled: boolean, cf_busy_dest: string | null, phone: TerminalWithCredentials['phone'], browser_md5_cred: string | null, records_prompts: boolean]

/**
 * The organizations' terminals with their endpoints and credentials (digests only), for the PBX's
 * files, in no order (the files sort them). It reads 100,000 rows: one raw statement of only the
 * columns written, read as tuples and made objects here by one literal, which costs a third of the
 * driver's own objects keyed by column name.
 */
export async function terminalsWithCredentials (db: AppDb, organizationIds: number[]): Promise<TerminalWithCredentials[]> {
  if (organizationIds.length === 0) return []
  const routingEditor = managesRouting(sql`t.employee_id`, sql`t.organization_id`)
  const rows = await selectTuples<TerminalTuple>(db, sql`
    select t.id, t.organization_id, t.extension, t.name, e.transport, e.context, e.disallow, e.allow,
      e.direct_media = 'yes', e.rtp_symmetric = 'yes', e.force_rport = 'yes', e.rewrite_contact = 'yes', e.language, e.mailboxes,
      a.md5_cred, a.password_digest, a.realm,
      t.outgoing_cli, t.allow_long_distance, t.cf_unconditional_enabled, t.cf_unconditional_dest, t.cf_unavailable_enabled, t.cf_unavailable_dest,
      t.cf_noanswer_enabled, t.cf_noanswer_dest, t.cf_noanswer_timeout, t.cf_busy_enabled, t.cf_busy_dest, t.phone, t.browser_md5_cred,
      ${routingEditor.fact}
    from ${sipTerminals} t join ${psEndpoints} e on e.id = t.id join ${psAuths} a on a.id = t.id ${routingEditor.join}
    where t.organization_id in ${organizationIds}`)
  return rows.map(([id, organization_id, extension, name, transport, context, disallow, allow, direct_media, rtp_symmetric, force_rport, rewrite_contact,
    language, mailboxes, md5_cred, password_digest, realm, outgoing_cli, allow_long_distance, cf_unconditional_enabled, cf_unconditional_dest,
    cf_unavailable_enabled, cf_unavailable_dest, cf_noanswer_enabled, cf_noanswer_dest, cf_noanswer_timeout, cf_busy_enabled, cf_busy_dest, phone, browser_md5_cred, records_prompts]) => ({
    id, organization_id, extension, name, transport, context, disallow, allow, direct_media, rtp_symmetric, force_rport, rewrite_contact,
    language, mailboxes, md5_cred, password_digest, realm, outgoing_cli, allow_long_distance, cf_unconditional_enabled, cf_unconditional_dest,
    cf_unavailable_enabled, cf_unavailable_dest, cf_noanswer_enabled, cf_noanswer_dest, cf_noanswer_timeout, cf_busy_enabled, cf_busy_dest, phone, browser_md5_cred, records_prompts,
  }))
}

/** the employee at an organization's terminal, and whether they may edit its routing (a prompt recorded by phone); undefined: no such terminal there */
export async function routingEditorAt (db: AppDb, organizationId: number, terminalId: string) {
  const routingEditor = managesRouting(sql`t.employee_id`, sql`t.organization_id`)
  return (await selectRows<{ employee_id: number | null, allowed: boolean }>(db, sql`
    select t.employee_id, ${routingEditor.fact} as allowed from ${sipTerminals} t ${routingEditor.join}
    where t.id = ${terminalId} and t.organization_id = ${organizationId}`))[0]
}

/** whether a terminal may dial long-distance and mobile numbers (false when there is no such terminal) */
export const terminalAllowsLongDistance = async (db: AppDb, id: string) =>
  (await db.select({ allowed: sipTerminals.allow_long_distance }).from(sipTerminals).where(eq(sipTerminals.id, id)))[0]?.allowed ?? false

/**
 * New browser keys for the terminals chosen: the MD5 digest of `id:realm:<a random secret>` for a
 * browser phone with an employee, none otherwise. The secret is kept nowhere: the digest is all a SIP
 * library needs to answer Asterisk's challenge (JsSIP's `ha1`), and all Asterisk needs to check it.
 * The row's change marks the PBX changed: the key given out before is void once it is applied.
 */
export async function renewBrowserKeys (db: AppDb, of: { terminalId: string } | { employeeId: number }): Promise<void> {
  const which = 'terminalId' in of ? sql`t.id = ${of.terminalId}` : sql`t.employee_id = ${of.employeeId} and t.phone = 'browser'`
  await db.execute(sql`
    update ${sipTerminals} t set browser_md5_cred = case when t.phone = 'browser' and t.employee_id is not null
      then md5(t.id || ':' || coalesce(a.realm, 'asterisk') || ':' || gen_random_uuid()::text) end
    from ${psAuths} a where a.id = t.id and ${which}`)
}

/** an employee's browser phones, with their keys (for that employee's own session only) */
export const browserPhonesOf = (db: AppDb, employeeId: number) =>
  selectRows<{ terminal_id: string, extension: string, name: string, realm: string, ha1: string }>(db, sql`
    select t.id as terminal_id, t.extension, t.name, coalesce(a.realm, 'asterisk') as realm, t.browser_md5_cred as ha1
    from ${sipTerminals} t join ${psAuths} a on a.id = t.id
    where t.employee_id = ${employeeId} and t.phone = 'browser' and t.browser_md5_cred is not null order by t.id`)
