import { Type, type Static } from 'typebox'
import { Id, Nullable, Offset, OneOf } from '../../lib/common-schemas.js'
import { phoneKinds } from '../../db/schema/endpoints.js'

/** Values that end up in Asterisk configuration: validated so they cannot open a section or a new line. */
const ConfigName = (what: string) => Type.String({ pattern: '^[A-Za-z0-9_.-]{1,40}$', maxLength: 40, description: what })
const Codecs = Type.String({ pattern: '^[a-z0-9_]+(,[a-z0-9_]+)*$', maxLength: 200, description: 'comma-separated codec names, or all' })
const Destination = Nullable(Type.String({ pattern: '^\\+?[0-9]{3,15}$', maxLength: 16, description: 'a 3-digit extension or a phone number' }))
const TerminalName = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\x00-\\x1f\\x7f\\[\\];]+$', 'x-trim': true, description: 'no control characters, brackets or semicolons' })
const SipPassword = Type.String({ pattern: '^[A-Za-z0-9]{20}$', minLength: 20, maxLength: 20, description: 'exactly 20 characters of A-Z, a-z, 0-9' })
const Extension = Type.String({ pattern: '^[0-9]{3}$', minLength: 3, maxLength: 3, description: '3 digits, 000-999' })
const Cli = Nullable(Type.String({ pattern: '^\\+?[0-9]{3,15}$', maxLength: 16, description: 'caller id number for outgoing calls' }))
const Mailboxes = Nullable(Type.String({ pattern: '^[A-Za-z0-9_@,.-]{1,40}$', maxLength: 40 }))

const PhoneKind = OneOf(phoneKinds, {
  description: 'where the phone is: `desk` a SIP phone (the default), `browser` the console over WebRTC (its employee\'s console registers it, with a key of its own: the SIP password is then not accepted)',
})

const settings = {
  transport: ConfigName('PJSIP transport section'),
  disallow: Codecs,
  allow: Codecs,
  direct_media: Type.Boolean(),
  rtp_symmetric: Type.Boolean(),
  force_rport: Type.Boolean(),
  rewrite_contact: Type.Boolean(),
  language: Type.String({ pattern: '^[a-z]{2}(_[A-Z]{2})?$', maxLength: 5 }),
  outgoing_cli: Cli,
  allow_long_distance: Type.Boolean({ description: 'long-distance and mobile calls allowed' }),
  cf_unconditional_enabled: Type.Boolean(),
  cf_unconditional_dest: Destination,
  cf_unavailable_enabled: Type.Boolean(),
  cf_unavailable_dest: Destination,
  cf_noanswer_enabled: Type.Boolean(),
  cf_noanswer_dest: Destination,
  cf_noanswer_timeout: Type.Integer({ minimum: 5, maximum: 120, description: 'seconds' }),
  cf_busy_enabled: Type.Boolean(),
  cf_busy_dest: Destination,
  mailboxes: Mailboxes,
  employee_id: Nullable(Id({ description: 'the employee working at this terminal (an employee of the same organization)' })),
  phone: PhoneKind,
}

export const EndpointResponse = Type.Object({
  id: Type.String(), name: Type.String(), tenant_id: Type.Integer(), context: Type.String(), extension: Type.String(),
  transport: Type.String(), disallow: Type.String(), allow: Type.String(), direct_media: Type.Boolean(), rtp_symmetric: Type.Boolean(),
  force_rport: Type.Boolean(), rewrite_contact: Type.Boolean(), language: Type.String(), outgoing_cli: Nullable(Type.String()),
  allow_long_distance: Type.Boolean(), cf_unconditional_enabled: Type.Boolean(), cf_unconditional_dest: Nullable(Type.String()),
  cf_unavailable_enabled: Type.Boolean(), cf_unavailable_dest: Nullable(Type.String()), cf_noanswer_enabled: Type.Boolean(),
  cf_noanswer_dest: Nullable(Type.String()), cf_noanswer_timeout: Type.Integer(), cf_busy_enabled: Type.Boolean(),
  cf_busy_dest: Nullable(Type.String()), aors: Type.String(), auth: Type.String(), type: Type.String(), mailboxes: Nullable(Type.String()),
  employee_id: Nullable(Type.Integer()), phone: PhoneKind,
}, { $id: 'EndpointResponse' })

export const EndpointCreate = Type.Object({
  name: TerminalName, extension: Extension, password: SipPassword,
  ...Type.Partial(Type.Object(settings)).properties,
}, { $id: 'EndpointCreate', additionalProperties: false })

/** extension and password are refused here (422), not silently dropped: they have their own paths */
const Refused = (why: string) => Type.Optional(Type.Unsafe<never>({ not: {}, description: why }))
export const EndpointUpdate = Type.Object({
  name: Type.Optional(TerminalName),
  ...Type.Partial(Type.Object(settings)).properties,
  extension: Refused('not accepted: the extension is part of the terminal id'),
  password: Refused('not accepted: use PUT .../{endpoint_id}/password'),
}, { $id: 'EndpointUpdate', additionalProperties: false })

export const EndpointPasswordUpdate = Type.Object({ password: SipPassword }, { $id: 'EndpointPasswordUpdate', additionalProperties: false })

export const EndpointListQuery = Type.Object({
  skip: Offset(),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
})
export const TenantParams = Type.Object({ tenant_id: Id() })
export const EndpointParams = Type.Object({ tenant_id: Id(), endpoint_id: Type.String({ pattern: '^[0-9]{6}$', minLength: 6, maxLength: 6 }) })

export type EndpointResponse = Static<typeof EndpointResponse>
export type EndpointCreate = Static<typeof EndpointCreate>
export type EndpointUpdate = Static<typeof EndpointUpdate>

export const EndpointsStatus = Type.Object({
  ami_connected: Type.Boolean(),
  message: Type.String(),
  endpoints: Type.Array(Type.Object({
    id: Type.String(), name: Type.String(), extension: Type.String(),
    registered: Nullable(Type.Boolean({ description: 'null when Asterisk cannot be asked' })),
    device_state: Nullable(Type.String()), contact_uri: Nullable(Type.String()), user_agent: Nullable(Type.String()),
    roundtrip_ms: Nullable(Type.Number()),
  })),
}, { $id: 'EndpointsStatus' })

export const PhoneSettings = Type.Object({
  server: Nullable(Type.String({ description: 'where the phones register (PBX_SIP_SERVER); null: not configured' })),
  port: Type.Integer(),
  realm: Type.String({ description: 'the realm of the digest credentials' }),
  echo_test: Type.String({ description: 'what a phone dials to hear itself back' }),
  websocket_url: Nullable(Type.String({ description: 'where the browser phones register (PBX_WEBSOCKET_URL); null: not configured' })),
}, { $id: 'PhoneSettings' })

export const schemas = [EndpointResponse, EndpointCreate, EndpointUpdate, EndpointPasswordUpdate, EndpointsStatus, PhoneSettings]
