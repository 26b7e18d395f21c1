import { Type, type Static } from 'typebox'
import { destinationKinds, lineRecordingModes, promptLanguages, queueStrategies, scheduleKinds } from '../../db/schema/index.js'
import { Id, Name, Nullable, OneOf, Timestamp } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'

// The API of an organization's call routing, under /api/organizations/{tenant_id}/: queues, inbound
// lines, menus, schedules and recorded prompts (DESIGN 9).

export const TenantParams = Type.Object({ tenant_id: Id() })
export const ItemParams = Type.Object({ tenant_id: Id(), item_id: Id() })
export const RecordingParams = Type.Object({ tenant_id: Id(), item_id: Id(), language: OneOf(promptLanguages) })

const Seconds = (min: number, max: number, description: string) => Type.Integer({ minimum: min, maximum: max, description })
const TerminalId = Type.String({ pattern: '^[0-9]{6}$', minLength: 6, maxLength: 6, description: 'a SIP terminal of the organization (its prefix and extension)' })
const Language = OneOf(promptLanguages, { description: 'kk: Kazakh, ru: Russian' })

/** where a call goes; the id of the one thing its kind names, and no other */
export const Destination = Type.Object({
  kind: OneOf(destinationKinds, { description: 'queue, terminal, menu; announcement: the prompt is played and the call ends; hangup' }),
  queue_id: Type.Optional(Nullable(Id())),
  terminal_id: Type.Optional(Nullable(TerminalId)),
  menu_id: Type.Optional(Nullable(Id())),
  prompt_id: Type.Optional(Nullable(Id())),
}, { $id: 'Destination', additionalProperties: false })
export type Destination = Static<typeof Destination>

export const DestinationView = Type.Object({
  kind: OneOf(destinationKinds), queue_id: Nullable(Type.Integer()), terminal_id: Nullable(Type.String()), menu_id: Nullable(Type.Integer()), prompt_id: Nullable(Type.Integer()),
}, { $id: 'DestinationView' })
export type DestinationView = Static<typeof DestinationView>

// queues

const QueueMember = Type.Object({
  terminal_id: TerminalId,
  penalty: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 0, description: 'members with a lower penalty are rung first' })),
}, { additionalProperties: false })

const queueSettings = {
  name: Name(100),
  strategy: OneOf(queueStrategies, { description: 'Asterisk\'s ring strategy' }),
  members: Type.Array(QueueMember, { maxItems: 1000, description: 'terminals of the same organization' }),
  all_terminals: Type.Boolean({ description: 'every terminal of the organization is a member (penalty 0) besides those listed' }),
  ring_timeout: Seconds(5, 300, 'seconds a member\'s phone rings'),
  retry: Seconds(0, 300, 'seconds before the members are rung again'),
  wrapup_time: Seconds(0, 3600, 'seconds after a call before the member is rung again'),
  max_callers: Type.Integer({ minimum: 0, maximum: 10000, description: 'callers waiting at most; 0: no limit' }),
  service_level: Seconds(1, 3600, 'an answer within this many seconds counts for the service level'),
  music_class: Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$', maxLength: 40, description: 'musiconhold.conf class callers hear while they wait' }),
  announce_position: Type.Boolean({ description: 'callers hear their place in the line' }),
  announce_holdtime: Type.Boolean({ description: 'callers hear the expected wait' }),
  periodic_prompt_id: Nullable(Id({ description: 'a prompt played to waiting callers' })),
  periodic_announce_seconds: Seconds(15, 3600, 'how often the periodic prompt is played'),
  max_wait: Nullable(Seconds(10, 7200, 'seconds a caller waits at most before the overflow destination; null: no limit')),
  overflow: ref(Destination),
  rating_prompt_id: Nullable(Id({ description: 'a rating menu the caller hears after the operator hangs up, a digit 1-5 (in the call\'s language); null: none' })),
  rating_timeout: Seconds(1, 30, 'seconds the rating menu waits for a digit'),
  callback_offer_after: Nullable(Seconds(10, 3600, 'a callback instead of waiting: after this many seconds (and as often again) a waiting caller hears the offer, and pressing 1 keeps their place and hangs up; null: no offer')),
  callback_prompt_id: Nullable(Id({ description: 'the offer, in the caller\'s language (a prompt with a recording); needed with callback_offer_after' })),
  callback_retries: Type.Integer({ minimum: 0, maximum: 10, description: 'attempts after the first that did not reach the caller' }),
  callback_retry_interval: Seconds(30, 86_400, 'seconds between attempts'),
}
const queueOptional = Object.fromEntries(Object.entries(queueSettings).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof typeof queueSettings]: ReturnType<typeof Type.Optional<typeof queueSettings[K]>> }

export const QueueCreate = Type.Object({ ...queueOptional, name: queueSettings.name }, { $id: 'QueueCreate', additionalProperties: false })
export type QueueCreate = Static<typeof QueueCreate>
export const QueueUpdate = Type.Object(queueOptional, { $id: 'QueueUpdate', additionalProperties: false })
export type QueueUpdate = Static<typeof QueueUpdate>

export const QueueResponse = Type.Object({
  id: Type.Integer(), tenant_id: Type.Integer(), asterisk_name: Type.String({ description: 'the queue\'s name in queues.conf' }),
  name: Type.String(), is_default: Type.Boolean(), strategy: Type.String(),
  members: Type.Array(Type.Object({ terminal_id: Type.String(), penalty: Type.Integer() })), all_terminals: Type.Boolean(),
  ring_timeout: Type.Integer(), retry: Type.Integer(), wrapup_time: Type.Integer(), max_callers: Type.Integer(), service_level: Type.Integer(),
  music_class: Type.String(), announce_position: Type.Boolean(), announce_holdtime: Type.Boolean(), periodic_prompt_id: Nullable(Type.Integer()),
  periodic_announce_seconds: Type.Integer(), max_wait: Nullable(Type.Integer()), overflow: ref(DestinationView),
  rating_prompt_id: Nullable(Type.Integer()), rating_timeout: Type.Integer(),
  callback_offer_after: Nullable(Type.Integer()), callback_prompt_id: Nullable(Type.Integer()), callback_retries: Type.Integer(), callback_retry_interval: Type.Integer(),
  created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'QueueResponse' })
export type QueueResponse = Static<typeof QueueResponse>

// schedules

const Clock = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', minLength: 5, maxLength: 5, description })
const OpenHours = Type.Object({
  weekday: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday ... 7 Sunday' }),
  opens: Clock('HH:MM'),
  closes: Clock('HH:MM, later than opens (24:00: midnight)'),
}, { additionalProperties: false })

export const ScheduleCreate = Type.Object({
  name: Name(100),
  kind: OneOf(scheduleKinds, { description: 'calendar: the centre\'s working calendar (WORK_HOURS, its holidays and worked weekend days); always: 24/7; weekly: the hours given' }),
  hours: Type.Optional(Type.Array(OpenHours, { maxItems: 70, description: 'weekly: the open hours of each day; a day not listed is closed' })),
}, { $id: 'ScheduleCreate', additionalProperties: false })
export type ScheduleCreate = Static<typeof ScheduleCreate>
export const ScheduleUpdate = Type.Object({
  name: Type.Optional(Name(100)), kind: Type.Optional(OneOf(scheduleKinds)), hours: Type.Optional(Type.Array(OpenHours, { maxItems: 70 })),
}, { $id: 'ScheduleUpdate', additionalProperties: false })
export type ScheduleUpdate = Static<typeof ScheduleUpdate>
export const ScheduleResponse = Type.Object({
  id: Type.Integer(), tenant_id: Type.Integer(), asterisk_name: Type.String(), name: Type.String(), kind: Type.String(),
  hours: Type.Array(Type.Object({ weekday: Type.Integer(), opens: Type.String(), closes: Type.String() })), created_at: Timestamp(),
}, { $id: 'ScheduleResponse' })
export type ScheduleResponse = Static<typeof ScheduleResponse>

// menus

const MenuOption = Type.Object({
  digit: Type.String({ pattern: '^[0-9*#]$', minLength: 1, maxLength: 1 }),
  language: Type.Optional(Nullable(Language)),
  destination: ref(Destination),
}, { additionalProperties: false })

const menuSettings = {
  name: Name(100),
  prompt_id: Nullable(Id({ description: 'the prompt the caller hears (in the call\'s language)' })),
  timeout: Seconds(1, 60, 'seconds to wait for a digit'),
  attempts: Type.Integer({ minimum: 1, maximum: 5, description: 'times the prompt is played before the timeout destination' }),
  options: Type.Array(MenuOption, { maxItems: 12, description: 'a digit each; a digit\'s language (kk, ru) is the call\'s from then on' }),
  timeout_destination: ref(Destination),
  invalid_destination: ref(Destination),
}
const menuOptional = Object.fromEntries(Object.entries(menuSettings).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof typeof menuSettings]: ReturnType<typeof Type.Optional<typeof menuSettings[K]>> }
export const MenuCreate = Type.Object({ ...menuOptional, name: menuSettings.name }, { $id: 'MenuCreate', additionalProperties: false })
export type MenuCreate = Static<typeof MenuCreate>
export const MenuUpdate = Type.Object(menuOptional, { $id: 'MenuUpdate', additionalProperties: false })
export type MenuUpdate = Static<typeof MenuUpdate>
export const MenuResponse = Type.Object({
  id: Type.Integer(), tenant_id: Type.Integer(), asterisk_name: Type.String(), name: Type.String(), prompt_id: Nullable(Type.Integer()),
  timeout: Type.Integer(), attempts: Type.Integer(),
  options: Type.Array(Type.Object({ digit: Type.String(), language: Nullable(Type.String()), destination: ref(DestinationView) })),
  timeout_destination: ref(DestinationView), invalid_destination: ref(DestinationView), created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'MenuResponse' })
export type MenuResponse = Static<typeof MenuResponse>

// inbound lines

const lineSettings = {
  number: Type.String({ pattern: '^\\+?[0-9]{2,19}$', maxLength: 20, description: 'as the trunk delivers it: a short number (109) or a full one (+77172...)' }),
  name: Name(100),
  schedule_id: Nullable(Id({ description: 'open by this schedule; null: at all hours' })),
  destination: ref(Destination),
  closed_destination: ref(Destination),
  recording: OneOf(lineRecordingModes, { description: 'always: every answered call is recorded, from the operator\'s answer to the hang-up; off: none' }),
  recording_prompt_id: Nullable(Id({ description: 'the prompt telling the caller the call is recorded, played before the line\'s destination while it is open' })),
  language: OneOf(promptLanguages, { description: 'the call\'s language before any choice (ru or kk): which recording of a prompt plays until a menu sets another' }),
}
export const LineCreate = Type.Object({
  number: lineSettings.number, name: lineSettings.name, destination: lineSettings.destination,
  schedule_id: Type.Optional(lineSettings.schedule_id), closed_destination: Type.Optional(lineSettings.closed_destination),
  recording: Type.Optional(lineSettings.recording), recording_prompt_id: Type.Optional(lineSettings.recording_prompt_id),
  language: Type.Optional({ ...lineSettings.language, default: 'ru' }),
}, { $id: 'LineCreate', additionalProperties: false })
export type LineCreate = Static<typeof LineCreate>
export const LineUpdate = Type.Object(Object.fromEntries(Object.entries(lineSettings).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof typeof lineSettings]: ReturnType<typeof Type.Optional<typeof lineSettings[K]>> },
  { $id: 'LineUpdate', additionalProperties: false })
export type LineUpdate = Static<typeof LineUpdate>
export const LineResponse = Type.Object({
  id: Type.Integer(), tenant_id: Type.Integer(), number: Type.String(), name: Type.String(), schedule_id: Nullable(Type.Integer()),
  destination: ref(DestinationView), closed_destination: ref(DestinationView), recording: Type.String(), recording_prompt_id: Nullable(Type.Integer()),
  language: OneOf(promptLanguages),
  created_at: Timestamp(), updated_at: Timestamp(),
}, { $id: 'LineResponse' })
export type LineResponse = Static<typeof LineResponse>

// prompts

export const PromptCreate = Type.Object({ name: Name(100) }, { $id: 'PromptCreate', additionalProperties: false })
export const PromptResponse = Type.Object({
  id: Type.Integer(), tenant_id: Type.Integer(), name: Type.String(), sound: Type.String({ description: 'what the dialplan plays: appeals/org<prefix>/<id>, in the channel\'s language' }),
  recordings: Type.Array(Type.Object({
    language: Type.String(), sample_rate: Type.Integer({ description: 'of what Asterisk plays: 8000 or 16000' }), duration_ms: Type.Integer({ description: 'of what Asterisk plays, once trimmed' }), size_bytes: Type.Integer(), uploaded_at: Timestamp(),
    source: Type.Union([Type.Object({
      format: Type.String({ description: 'wav, mp3, ogg, mp4, flac, webm, aiff, amr; phone for a recording made by phone' }),
      codec: Type.String(), sample_rate: Type.Integer(), channels: Type.Integer(), duration_ms: Type.Integer({ description: 'the source\'s own length, silence included' }),
      gain_db: Type.Number({ description: 'the level change the conversion applied' }),
      terminal: Type.Optional(Type.String({ description: 'recorded by phone: the terminal it was recorded at' })),
      employee_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'recorded by phone: the employee at that terminal' })),
    }), Type.Null()], { description: 'what the recording was converted from (null for one kept before conversions)' }),
  })),
  created_at: Timestamp(),
}, { $id: 'PromptResponse' })
export type PromptResponse = Static<typeof PromptResponse>

export const callRoutingSchemas = [Destination, DestinationView, QueueCreate, QueueUpdate, QueueResponse, ScheduleCreate, ScheduleUpdate, ScheduleResponse,
  MenuCreate, MenuUpdate, MenuResponse, LineCreate, LineUpdate, LineResponse, PromptCreate, PromptResponse]
