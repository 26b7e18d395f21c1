import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, serial, smallint, timestamp, unique, varchar } from 'drizzle-orm/pg-core'
import { oneOf } from './checks.js'
import { organizations } from './organizations.js'

// The public network's side of the PBX (issue 49): the providers' trunks, which the deployment
// shares, and each organization's outbound routes over them. A trunk keeps no password, only the
// digests of username:realm:password, as the terminals do; a route names its trunks in order, and a
// trunk a route uses cannot be deleted (409).

/** how the provider knows us: we register with it, or it sends from and takes calls at known addresses */
export const trunkModes = ['registration', 'ip'] as const
export const trunkTransports = ['transport-udp', 'transport-tcp'] as const
/** how the provider wants a Kazakh number written: +77172..., 87172..., 77172... */
export const numberFormats = ['e164', 'national', 'digits'] as const

export const trunks = pgTable('trunks', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  mode: varchar('mode', { length: 12, enum: trunkModes }).notNull(),
  host: varchar('host', { length: 253 }).notNull(),
  port: integer('port').notNull().default(5060),
  transport: varchar('transport', { length: 20, enum: trunkTransports }).notNull().default('transport-udp'),
  /** the account at the provider (registration): also the From user it expects */
  username: varchar('username', { length: 64 }),
  /** the realm the provider's challenge names: the digests are of username:realm:password */
  realm: varchar('realm', { length: 253 }),
  md5_cred: varchar('md5_cred', { length: 32 }),
  /** `SHA-256:<hex>` */
  password_digest: varchar('password_digest', { length: 80 }),
  /** the addresses (or networks) the provider's calls come from (ip); the host's own is always one */
  match: varchar('match', { length: 40 }).array().notNull().default(sql`'{}'::varchar[]`),
  codecs: varchar('codecs', { length: 200 }).notNull().default('alaw,ulaw'),
  /** where the provider's calls enter: appeals-inbound (the lines) */
  context: varchar('context', { length: 40 }).notNull().default('appeals-inbound'),
  number_format: varchar('number_format', { length: 10, enum: numberFormats }).notNull().default('e164'),
  /** the number sent as the caller when the terminal has no outgoing caller id of its own */
  caller_id: varchar('caller_id', { length: 16 }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  oneOf('trunks_mode_check', t.mode, trunkModes),
  oneOf('trunks_transport_check', t.transport, trunkTransports),
  oneOf('trunks_number_format_check', t.number_format, numberFormats),
  check('trunks_port_check', sql`${t.port} between 1 and 65535`),
  check('trunks_registration_check', sql`${t.mode} <> 'registration' or (${t.username} is not null and ${t.realm} is not null and ${t.md5_cred} is not null)`),
])

export const outboundRoutes = pgTable('outbound_routes', {
  id: serial('id').primaryKey(),
  organization_id: integer('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 100 }).notNull(),
  /** dial patterns as Asterisk writes them without the underscore: 8XXXXXXXXXX, 10[1-4], 112 */
  patterns: varchar('patterns', { length: 32 }).array().notNull(),
  /** only terminals allowed long-distance calls may use it */
  long_distance: boolean('long_distance').notNull().default(false),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('outbound_routes_organization_idx').on(t.organization_id), unique('outbound_routes_organization_id_unique').on(t.organization_id, t.id)])

/** a route's trunks in order of preference: the next is tried when one is unavailable or congested */
export const outboundRouteTrunks = pgTable('outbound_route_trunks', {
  route_id: integer('route_id').notNull().references(() => outboundRoutes.id, { onDelete: 'cascade' }),
  position: smallint('position').notNull(),
  trunk_id: integer('trunk_id').notNull().references(() => trunks.id),
}, (t) => [primaryKey({ columns: [t.route_id, t.position] }), unique('outbound_route_trunks_once').on(t.route_id, t.trunk_id), index('outbound_route_trunks_trunk_idx').on(t.trunk_id)])
