import { Type, type Static } from 'typebox'
import { Id, Nullable, OneOf, Timestamp } from '../../lib/common-schemas.js'
import { numberFormats, trunkModes, trunkTransports } from '../../db/schema/index.js'
import { DIAL_PATTERN } from './dial-patterns.js'

// Every value here ends up in pjsip.conf or extensions.conf: each is held to a shape that cannot
// open a section, start a new line or carry an option of its own.

const FreeName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\x00-\\x1f\\x7f\\[\\];]+$', 'x-trim': true, description: 'no control characters, brackets or semicolons' })
const Host = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$', description: 'the provider\'s SIP server: a name or an IPv4 address' })
const Address = Type.String({ maxLength: 40, pattern: '^[0-9]{1,3}(\\.[0-9]{1,3}){3}(/[0-9]{1,2})?$|^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$', description: 'an IPv4 address, a network (a.b.c.d/nn) or a host name' })
const Codecs = Type.String({ pattern: '^[a-z0-9_]+(,[a-z0-9_]+)*$', maxLength: 200, description: 'comma-separated codec names, in order of preference' })
const Number = Type.String({ pattern: '^\\+?[0-9]{3,15}$', maxLength: 16 })

const trunkSettings = {
  name: FreeName,
  mode: OneOf(trunkModes, { description: 'registration: we register with the provider with a username and password; ip: the provider knows our address and sends from its own' }),
  host: Host,
  port: Type.Integer({ minimum: 1, maximum: 65535, default: 5060 }),
  transport: OneOf(trunkTransports, { default: 'transport-udp' }),
  username: Nullable(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.+-]+$', description: 'the account at the provider (registration); also the From user' })),
  realm: Nullable(Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9_.:-]+$', description: 'the realm the provider\'s challenge names (registration); its host when not given' })),
  match: Type.Array(Address, { maxItems: 20, uniqueItems: true, description: 'addresses the provider\'s calls come from, besides its host' }),
  codecs: Codecs,
  context: Type.String({ pattern: '^(appeals-inbound|org[0-9]{1,10}-internal)$', maxLength: 40, default: 'appeals-inbound', description: 'where its calls enter: appeals-inbound (the lines) or an organization\'s internal context' }),
  number_format: OneOf(numberFormats, { default: 'e164', description: 'how a Kazakh number is sent: e164 +77172..., national 87172..., digits 77172...' }),
  caller_id: Nullable(Type.String({ ...Number, description: 'the number sent as the caller when the terminal has no outgoing caller id' })),
}
const Password = Type.String({ minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$', description: 'written once: only the digests of username:realm:password are kept' })

export const TrunkResponse = Type.Object({
  id: Type.Integer(),
  asterisk_name: Type.String({ description: 'the endpoint, auth, aor and registration in pjsip.conf' }),
  name: Type.String(), mode: OneOf(trunkModes), host: Type.String(), port: Type.Integer(), transport: OneOf(trunkTransports),
  username: Nullable(Type.String()), realm: Nullable(Type.String()), has_password: Type.Boolean(),
  match: Type.Array(Type.String()), codecs: Type.String(), context: Type.String(), number_format: OneOf(numberFormats), caller_id: Nullable(Type.String()),
  used_by: Type.Array(Type.Object({ route_id: Type.Integer(), route_name: Type.String(), tenant_id: Type.Integer(), organization_name: Type.String() }), { description: 'the outbound routes that send calls through it' }),
  created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'TrunkResponse' })

const { name, mode, host, ...optionalTrunkSettings } = trunkSettings
export const TrunkCreate = Type.Object({
  name, mode, host,
  ...Type.Partial(Type.Object({ ...optionalTrunkSettings, password: Password })).properties,
}, { $id: 'TrunkCreate', additionalProperties: false })

export const TrunkUpdate = Type.Partial(Type.Object({ ...trunkSettings, password: Password }), { $id: 'TrunkUpdate', additionalProperties: false })

export const TrunkParams = Type.Object({ trunk_id: Id() })

export const TrunksStatus = Type.Object({
  ami_connected: Type.Boolean(),
  message: Type.String(),
  trunks: Type.Array(Type.Object({
    id: Type.Integer(), name: Type.String(), asterisk_name: Type.String(), mode: OneOf(trunkModes),
    registration: Nullable(Type.String({ description: 'Asterisk\'s word for the registration (Registered, Unregistered, Rejected...); null for an IP trunk or when Asterisk cannot be asked' })),
    server_uri: Nullable(Type.String()),
    next_registration_seconds: Nullable(Type.Integer()),
    in_asterisk: Nullable(Type.Boolean({ description: 'whether Asterisk has the trunk (false until the configuration is generated and reloaded)' })),
  })),
}, { $id: 'TrunksStatus' })

const routeSettings = {
  name: FreeName,
  patterns: Type.Array(Type.String({ minLength: 1, maxLength: 32, pattern: DIAL_PATTERN }), { minItems: 1, maxItems: 20, uniqueItems: true, description: 'dial patterns without the underscore: 8XXXXXXXXXX, 10[1-4], 112, 810.' }),
  long_distance: Type.Boolean({ description: 'only terminals allowed long-distance calls may dial it' }),
  trunk_ids: Type.Array(Id(), { minItems: 1, maxItems: 5, uniqueItems: true, description: 'trunks in order of preference: the next is tried when one is unavailable or congested' }),
}

export const OutboundRouteResponse = Type.Object({
  id: Type.Integer(), tenant_id: Type.Integer(), name: Type.String(), patterns: Type.Array(Type.String()), long_distance: Type.Boolean(),
  trunk_ids: Type.Array(Type.Integer()),
  trunks: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'OutboundRouteResponse' })

export const OutboundRouteCreate = Type.Object({
  name: routeSettings.name, patterns: routeSettings.patterns, trunk_ids: routeSettings.trunk_ids,
  long_distance: Type.Optional(Type.Boolean({ ...routeSettings.long_distance, default: false })),
}, { $id: 'OutboundRouteCreate', additionalProperties: false })

export const OutboundRouteUpdate = Type.Partial(Type.Object(routeSettings), { $id: 'OutboundRouteUpdate', additionalProperties: false })

export const TenantParams = Type.Object({ tenant_id: Id() })
export const RouteParams = Type.Object({ tenant_id: Id(), route_id: Id() })

export type TrunkResponse = Static<typeof TrunkResponse>
export type TrunkCreate = Static<typeof TrunkCreate>
export type TrunkUpdate = Static<typeof TrunkUpdate>
export type OutboundRouteResponse = Static<typeof OutboundRouteResponse>
export type OutboundRouteCreate = Static<typeof OutboundRouteCreate>
export type OutboundRouteUpdate = Static<typeof OutboundRouteUpdate>

export const schemas = [TrunkResponse, TrunkCreate, TrunkUpdate, TrunksStatus, OutboundRouteResponse, OutboundRouteCreate, OutboundRouteUpdate]
