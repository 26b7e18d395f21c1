import { boolean, index, integer, pgTable, timestamp, unique, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { organizations } from './organizations.js'
import { users } from './users.js'

// The three tables Asterisk's PJSIP realtime reads (res_pjsip via sorcery), with the columns and the
// yes/no values of Asterisk's own schema, so a deployment may point realtime at them. The service's
// own columns live in sip_terminals beside them: realtime refuses unknown options.

export const yesNo = ['yes', 'no'] as const
/**
 * where a terminal's phone is: a SIP phone on the desk, or the console in a browser (WebRTC). Not both
 * at once: PJSIP's media options (DTLS-SRTP, ICE, AVPF) are the endpoint's, for every contact of it.
 */
export const phoneKinds = ['desk', 'browser'] as const
/** Asterisk 22 writes `digest`; `md5` and `userpass` are its deprecated spellings of the same */
export const authTypes = ['digest', 'md5', 'userpass'] as const
const yn = (name: string) => varchar(name, { length: 3, enum: yesNo })

export const psEndpoints = pgTable('ps_endpoints', {
  id: varchar('id', { length: 40 }).primaryKey(),
  transport: varchar('transport', { length: 40 }),
  aors: varchar('aors', { length: 200 }),
  auth: varchar('auth', { length: 40 }),
  context: varchar('context', { length: 40 }),
  disallow: varchar('disallow', { length: 200 }),
  allow: varchar('allow', { length: 200 }),
  direct_media: yn('direct_media'),
  force_rport: yn('force_rport'),
  rewrite_contact: yn('rewrite_contact'),
  rtp_symmetric: yn('rtp_symmetric'),
  language: varchar('language', { length: 40 }),
  mailboxes: varchar('mailboxes', { length: 40 }),
  callerid: varchar('callerid', { length: 40 }),
}, (t) => [t.direct_media, t.force_rport, t.rewrite_contact, t.rtp_symmetric].map((c) => oneOf(`ps_endpoints_${c.name}_check`, c, yesNo)))

export const psAuths = pgTable('ps_auths', {
  id: varchar('id', { length: 40 }).primaryKey(),
  auth_type: varchar('auth_type', { length: 10, enum: authTypes }).notNull().default('digest'),
  username: varchar('username', { length: 40 }),
  // Never the password itself: the digests of username:realm:password that SIP digest authentication
  // needs (RFC 8760). Asterisk reads md5_cred as `password_digest = MD5:...`.
  md5_cred: varchar('md5_cred', { length: 40 }),
  /** `SHA-256:<hex>`; null for a terminal whose password was last set before SHA-256 digests were kept */
  password_digest: varchar('password_digest', { length: 1024 }),
  realm: varchar('realm', { length: 40 }),
}, (t) => [oneOf('ps_auths_auth_type_check', t.auth_type, authTypes)])

export const psAors = pgTable('ps_aors', {
  id: varchar('id', { length: 40 }).primaryKey(),
  max_contacts: integer('max_contacts').default(1),
  remove_existing: yn('remove_existing').default('yes'),
}, (t) => [oneOf('ps_aors_remove_existing_check', t.remove_existing, yesNo)])

/** The service's side of a SIP terminal: its tenant, name, extension and call forwarding. */
export const sipTerminals = pgTable('sip_terminals', {
  id: varchar('id', { length: 40 }).primaryKey().references(() => psEndpoints.id, { onDelete: 'cascade' }),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'restrict' }),
  extension: varchar('extension', { length: 3 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  /** the employee who works at this terminal: call events of the terminal are that employee's */
  employee_id: integer('employee_id').references(() => users.id, { onDelete: 'set null' }),
  outgoing_cli: varchar('outgoing_cli', { length: 20 }),
  allow_long_distance: boolean('allow_long_distance').notNull().default(false),
  cf_unconditional_enabled: boolean('cf_unconditional_enabled').notNull().default(false),
  cf_unconditional_dest: varchar('cf_unconditional_dest', { length: 20 }),
  cf_unavailable_enabled: boolean('cf_unavailable_enabled').notNull().default(false),
  cf_unavailable_dest: varchar('cf_unavailable_dest', { length: 20 }),
  cf_noanswer_enabled: boolean('cf_noanswer_enabled').notNull().default(false),
  cf_noanswer_dest: varchar('cf_noanswer_dest', { length: 20 }),
  cf_noanswer_timeout: integer('cf_noanswer_timeout').notNull().default(20),
  cf_busy_enabled: boolean('cf_busy_enabled').notNull().default(false),
  cf_busy_dest: varchar('cf_busy_dest', { length: 20 }),
  phone: varchar('phone', { length: 7, enum: phoneKinds }).notNull().default('desk'),
  /**
   * The browser phone's key: the MD5 digest of `id:realm:<a random secret>` (the secret itself is kept
   * nowhere), which Asterisk checks as a second auth of the endpoint and the owner's browser answers
   * with. Set while the terminal has a browser phone and an employee; a new one at each change of hands
   * and each sign-out, so a key given out before is void once the PBX is applied.
   */
  browser_md5_cred: varchar('browser_md5_cred', { length: 32 }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('sip_terminals_organization_idx').on(t.organization_id, t.extension),
  index('sip_terminals_employee_idx').on(t.employee_id),
  oneOf('sip_terminals_phone_check', t.phone, phoneKinds),
  // what a call route's foreign key names: a destination or a queue member stays within the terminal's tenant
  unique('sip_terminals_organization_id_unique').on(t.organization_id, t.id),
])
