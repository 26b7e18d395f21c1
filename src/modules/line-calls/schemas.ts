import { Type, type Static } from 'typebox'
import { callbackStatuses, lineCallOutcomes, memberStateNames, menuExits, legWays } from '../../db/schema/index.js'
import { ExportFields, LocalDay, Nullable, OneOf, Pagination, Timestamp } from '../../lib/common-schemas.js'

// The calls of the public line as Asterisk's events told them (DESIGN 9; beyond the interface).

export const LineCallQuery = Type.Object({
  ...Pagination(50),
  outcome: Type.Optional(OneOf(lineCallOutcomes)),
}, { additionalProperties: false })
export type LineCallQuery = Static<typeof LineCallQuery>

export const ReviewQuery = Type.Object({ ...Pagination(50) }, { additionalProperties: false })
export type ReviewQuery = Static<typeof ReviewQuery>
export const ReviewBody = Type.Object({
  comment: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'what the supervisor found and did' }),
}, { $id: 'LineCallReview', additionalProperties: false })

export const LineCallParams = Type.Object({ linkedid: Type.String({ pattern: '^[0-9]+\\.[0-9]+$', maxLength: 64, description: 'Asterisk\'s Linkedid: the caller channel\'s Uniqueid' }) })

const Attempt = Type.Object({
  interface: Type.String({ description: 'the queue member rung: PJSIP/<terminal>' }),
  member_name: Type.String(),
  rung_at: Timestamp(),
  result: OneOf(['ringing', 'no_answer', 'answered', 'not_answered'] as const, { description: 'no_answer: it rang out (the queue\'s timeout); not_answered: the caller left while it rang' }),
  ring_seconds: Nullable(Type.Number()),
})

export const LineCallView = Type.Object({
  linkedid: Type.String({ description: 'the call\'s id everywhere: the call events\' call_id' }),
  organization_id: Nullable(Type.Integer()),
  caller_number: Nullable(Type.String()),
  line: Nullable(Type.String({ description: 'the inbound line dialled' })),
  menu_id: Nullable(Type.Integer({ description: 'the last menu the call entered; with menu_exit null, the caller is in it now' })),
  menu_choice: Nullable(Type.String({ description: 'the digit chosen in the last menu' })),
  menu_exit: Nullable(OneOf(menuExits, { description: 'how the caller left the last menu: choice, timeout (no digit, its attempts exhausted), invalid (a wrong digit), hangup (hung up in it); null: no menu' })),
  closed: Type.Boolean({ description: 'the line\'s schedule had it closed when the call came' }),
  language: Nullable(Type.String({ description: 'chosen in the language menu (kk, ru)' })),
  queue: Nullable(Type.String()),
  joined_at: Nullable(Timestamp()),
  position: Nullable(Type.Integer({ description: 'its place in the queue when it joined' })),
  attempts: Type.Array(Attempt),
  earlier_queues: Type.Array(Type.Object({
    queue: Type.String(),
    joined_at: Timestamp(),
    hold_seconds: Nullable(Type.Number()),
    service_level_seconds: Nullable(Type.Integer()),
    answered_by: Nullable(Type.String({ description: 'the member who answered it there before passing it on (a transfer into another queue); null: it timed out' })),
    answered_at: Nullable(Timestamp()),
    talk_seconds: Nullable(Type.Number({ description: 'how long they talked before passing it on' })),
  }), { description: 'the queues the call left before `queue`: by their time limit (an overflow: offered and timed out there), or answered and passed on (offered and answered there, in that queue\'s organization\'s figures)' }),
  legs: Type.Array(Type.Object({
    interface: Type.String({ description: 'the terminal that talked with the caller: PJSIP/<terminal>; for a number outside, its trunk: PJSIP/<trunk>' }),
    number: Nullable(Type.String({ description: 'a number outside the call was passed to (through the organization\'s outbound routes), as Asterisk dialled it, in +7 form for Kazakhstan\'s; null for a terminal' })),
    how: OneOf(legWays, { description: 'queue (answered from a queue), dial (rung by the routing), blind or attended (passed on by `from`), three_way (joined the caller and `from` in a three-way call), returned (back with the caller after consulting someone)' }),
    from: Nullable(Type.String({ description: 'who passed the call on to it' })),
    started_at: Timestamp(),
    ended_at: Nullable(Timestamp()),
    talk_seconds: Nullable(Type.Number()),
  }), { description: 'the call\'s path: who talked with the caller, in order, each for how long (a part of the call\'s one recording, which follows the caller)' }),
  answered_by: Nullable(Type.String({ description: 'the queue member whose answer the queue counts (the latest queue\'s); the legs say who talked with the caller' })),
  answered_at: Nullable(Timestamp()),
  hold_seconds: Nullable(Type.Number({ description: 'Asterisk\'s HoldTime: from joining the queue to the answer, or to leaving it' })),
  talk_seconds: Nullable(Type.Number()),
  ended_by: Nullable(Type.String({ description: 'who ended an answered call: caller, agent or transfer' })),
  service_level_seconds: Nullable(Type.Integer({ description: 'the queue\'s servicelevel when the call was in it (null: a queue the service does not know; 20 is used)' })),
  wrapup_seconds: Nullable(Type.Integer({ description: 'the queue\'s wrapuptime: the agent\'s wrap-up after the call' })),
  outcome: OneOf(lineCallOutcomes, { description: 'waiting (in a queue now), answered, abandoned (the caller hung up waiting), timed_out (Queue()\'s time limit: the dialplan went on), unobserved (it left its queue, or the line, while the service heard no events: its end is unknown); never queued: entered (on the line now, before any queue), ended (the caller hung up before a queue or a destination), announced (sent to an announcement), terminal (sent to a terminal), hangup (the routing hung up), refused (a number no line owns)' }),
  rating: Nullable(Type.Integer({ minimum: 1, maximum: 5, description: 'the citizen\'s score in the queue\'s rating menu after the operator hung up' })),
  reviewed_at: Nullable(Type.String({ format: 'date-time', description: 'a low score (1, 2) stays on the supervisors\' review list until a supervisor reviews it' })),
  reviewed_by: Nullable(Type.Integer()),
  review_comment: Nullable(Type.String()),
  started_at: Timestamp(),
  ended_at: Nullable(Timestamp()),
}, { $id: 'LineCallView' })

export const LineCallPage = Type.Object({ items: Type.Array(Type.Ref('LineCallView')), total: Type.Integer() }, { $id: 'LineCallPage' })

export const DEFAULT_SHORT_ABANDON_SECONDS = 5

export const LineKpiQuery = Type.Object({
  date_from: Type.Optional(LocalDay('first day, in the centre\'s zone; default: date_to')),
  date_to: Type.Optional(LocalDay('last day (included); default: today')),
  queue: Type.Optional(Type.String({ pattern: '^org[0-9]+-(queue|q[0-9]+)$', maxLength: 40, description: 'one queue by its Asterisk name' })),
  short_abandon_seconds: Type.Integer({ minimum: 0, maximum: 120, default: DEFAULT_SHORT_ABANDON_SECONDS, description: 'an abandon after less wait than this counts apart, as short_abandoned' }),
}, { additionalProperties: false })
export type LineKpiQuery = Static<typeof LineKpiQuery>

export const kpiBreakdownNames = ['day', 'queue', 'interval', 'operator', 'line', 'line_day', 'line_interval'] as const
export const LineKpiExportQuery = Type.Object({
  ...LineKpiQuery.properties,
  by: OneOf(kpiBreakdownNames, { default: 'day', description: 'the breakdown the file holds: a row per day, queue, 30-minute interval, or operator of the queues\' figures; per line, day or 30-minute interval of the lines\' own' }),
  ...ExportFields(),
}, { additionalProperties: false })
export type LineKpiExportQuery = Static<typeof LineKpiExportQuery>

export const LineCallExportQuery = Type.Object({
  date_from: LineKpiQuery.properties.date_from,
  date_to: LineKpiQuery.properties.date_to,
  queue: LineKpiQuery.properties.queue,
  outcome: Type.Optional(OneOf(lineCallOutcomes)),
  ...ExportFields(),
}, { additionalProperties: false })
export type LineCallExportQuery = Static<typeof LineCallExportQuery>

const Seconds = (description: string) => Nullable(Type.Number({ description: `${description}; seconds, null when there is no call to average` }))
const Percent = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 100, description: `${description}; percent to 0.1, null when there is no call to count` }))

/** the citizens' scores in the queues' rating menus */
const RatingFigures = {
  ratings: Type.Integer({ description: 'answered calls the citizen scored (1-5) in the queue\'s rating menu' }),
  average_rating: Nullable(Type.Number({ minimum: 1, maximum: 5, description: 'their average score, to 0.01; null when none' })),
  rated_share: Percent('100 × ratings / answered calls'),
}

const QueueFigures = {
  offered: Type.Integer({ description: 'calls that joined the queue' }),
  answered: Type.Integer(),
  abandoned: Type.Integer({ description: 'callers who hung up while waiting, after short_abandon_seconds or more' }),
  short_abandoned: Type.Integer({ description: 'callers who hung up within short_abandon_seconds' }),
  timed_out: Type.Integer({ description: 'callers who waited out Queue()\'s time limit' }),
  answered_within_service_level: Type.Integer({ description: 'answered with a hold no longer than the queue\'s servicelevel' }),
  service_level: Percent('Asterisk\'s ServicelevelPerf: answered_within_service_level / answered'),
  service_level_with_abandoned: Percent('Asterisk\'s ServicelevelPerf2: (answered or abandoned or timed out within the servicelevel) / (answered + abandoned + short_abandoned + timed_out)'),
  average_speed_of_answer: Seconds('the average hold of the answered calls'),
  average_talk: Seconds('the average talk of the answered calls that ended'),
  average_handling: Seconds('the average talk + wrap-up of the answered calls that ended'),
  longest_hold: Nullable(Type.Number({ description: 'the longest hold of the period\'s calls, seconds' })),
  ...RatingFigures,
}

const LineFigures = {
  calls: Type.Integer({ description: 'calls that entered the line (the inbound context), in progress too' }),
  closed: Type.Integer({ description: 'of them, while the line\'s schedule had it closed' }),
  refused: Type.Integer({ description: 'calls to a number no line owns (counted under that number)' }),
  menu_hangup: Type.Integer({ description: 'callers who hung up in a menu before choosing' }),
  menu_timeout: Type.Integer({ description: 'callers who chose nothing in a menu (its attempts exhausted) and were not then queued' }),
  menu_invalid: Type.Integer({ description: 'callers who pressed a wrong digit in a menu and were not then queued' }),
  language_ru: Type.Integer({ description: 'calls that went on in Russian (chosen in the menu, or the line\'s default when queued)' }),
  language_kk: Type.Integer({ description: 'calls that went on in Kazakh' }),
  to_queue: Type.Integer({ description: 'calls that joined a queue' }),
}

export const LineKpis = Type.Object({
  date_from: Type.String({ format: 'date' }),
  date_to: Type.String({ format: 'date' }),
  time_zone: Type.String(),
  short_abandon_seconds: Type.Integer(),
  totals: Type.Object(QueueFigures),
  queues: Type.Array(Type.Object({
    queue: Type.String(),
    ...QueueFigures,
    waiting_now: Type.Integer({ description: 'callers in the queue now' }),
    longest_wait_now: Nullable(Type.Number({ description: 'how long the longest-waiting caller has waited now, seconds' })),
  })),
  intervals: Type.Array(Type.Object({ start: Timestamp(), ...QueueFigures }), { description: 'every 30 minutes of the period, from its first local midnight' }),
  callbacks: Type.Object({
    requested: Type.Integer({ description: 'callers who pressed a queue\'s callback digit in the period' }),
    placed: Type.Integer({ description: 'attempts to call them back placed in the period' }),
    reached: Type.Integer(), failed: Type.Integer({ description: 'requests given up in the period (their attempts spent, or not a number)' }),
    mean_seconds_to_reach: Nullable(Type.Integer({ description: 'from the request to reaching the caller, of those reached in the period' })),
    p90_seconds_to_reach: Nullable(Type.Integer()),
  }, { description: 'callbacks instead of waiting (issue 50)' }),
  days: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), ...QueueFigures })),
  operators: Type.Array(Type.Object({
    interface: Type.String({ description: 'the queue member: PJSIP/<terminal>' }),
    terminal_id: Nullable(Type.String()),
    name: Nullable(Type.String({ description: 'the terminal\'s employee, else the terminal\'s name' })),
    calls: Type.Integer({ description: 'calls answered in the period' }),
    talk_seconds: Type.Number(),
    wrapup_seconds: Type.Number(),
    handling_seconds: Type.Number({ description: 'talk + wrap-up' }),
    average_handling: Seconds('handling_seconds / the calls that ended'),
    ...RatingFigures,
    state_seconds: Type.Object({
      ready: Type.Number(), ringing: Type.Number(), on_call: Type.Number(), wrap_up: Type.Number(), break: Type.Number(), offline: Type.Number(),
    }, { description: 'the time the member spent in each state within the period (up to now), seconds' }),
    pauses: Type.Array(Type.Object({ reason: Type.String({ description: 'the pause\'s reason; empty when none was given' }), seconds: Type.Number() }), { description: 'time on break by reason, longest first' }),
    pause_seconds: Type.Number({ description: 'time on break in all' }),
    occupancy: Percent('100 × (on_call + wrap_up) / (ready + ringing + on_call + wrap_up): the share of the time available to the queue spent on calls'),
  })),
  lines: Type.Object({
    totals: Type.Object(LineFigures),
    lines: Type.Array(Type.Object({ line: Type.String({ description: 'the number dialled' }), ...LineFigures })),
    intervals: Type.Array(Type.Object({ start: Timestamp(), ...LineFigures }), { description: 'every 30 minutes of the period, from its first local midnight' }),
    days: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), ...LineFigures })),
  }, { description: 'the lines\' own figures: every call that entered the inbound context in the period, by its start (the queue filter does not narrow them)' }),
}, { $id: 'LineKpis' })
export type LineKpis = Static<typeof LineKpis>

export const LineBoard = Type.Object({
  day: Type.String({ format: 'date', description: 'today in the centre\'s zone: the figures are today\'s' }),
  time_zone: Type.String(),
  pbx: OneOf(['connected', 'unreachable', 'not_configured'] as const, { description: 'whether Asterisk answers (AMI): without it nobody waiting and no agent can be seen, and the figures stop at the last event heard' }),
  totals: Type.Object(QueueFigures),
  queues: Type.Array(Type.Object({
    ...LineKpis.properties.queues.items.properties,
    name: Nullable(Type.String({ description: 'the queue\'s own name (null: a queue Asterisk has and the service does not)' })),
    is_default: Type.Boolean({ description: 'the organization\'s own queue' }),
  }), { description: 'every queue configured (at zero before its first call of the day; 200 at most in all) and every queue with calls today' }),
  lines: Type.Array(Type.Object({ line: Type.String(), ...LineFigures }), { description: 'today\'s figures of each line' }),
  waiting: Type.Array(Type.Object({
    linkedid: Type.String(),
    queue: Nullable(Type.String()),
    caller_number: Nullable(Type.String()),
    joined_at: Timestamp(),
    position: Nullable(Type.Integer()),
    language: Nullable(Type.String()),
  }), { description: 'callers in a queue now, longest waiting first (200 at most; queues[].waiting_now counts them all)' }),
  callbacks: Type.Array(Type.Object({
    id: Type.Integer(), queue: Type.String(), number: Type.String(), line: Nullable(Type.String()), language: Nullable(Type.String()),
    joined_at: Timestamp(), requested_at: Timestamp(),
    status: OneOf(callbackStatuses, { description: 'waiting (again after an attempt that did not reach them: next_attempt_at), placing, failed (today)' }),
    attempts: Type.Integer(), next_attempt_at: Timestamp(), reason: Nullable(Type.String()),
  }), { description: 'the callback requests beside the callers waiting, in their places: waiting, being placed, and those failed today (200 at most)' }),
  agents: Type.Array(Type.Object({
    interface: Type.String({ description: 'the queue member: PJSIP/<terminal>' }),
    terminal_id: Nullable(Type.String()),
    name: Type.String({ description: 'the terminal\'s employee, else the terminal\'s name, else Asterisk\'s member name' }),
    state: OneOf(memberStateNames, { description: 'ready, ringing, on_call, wrap_up (the queue\'s wrapuptime after a call), break (paused with a reason), offline (paused as offline, unregistered, or in no queue)' }),
    reason: Nullable(Type.String({ description: 'a break\'s reason' })),
    since: Timestamp(),
    break_over_seconds: Nullable(Type.Integer({ description: 'on a break longer than its reason\'s max_minutes (/api/agents/break-reasons): by how many seconds' })),
    browser: Type.Boolean({ description: 'the terminal is a browser phone: the operator works from the console alone' }),
  })),
}, { $id: 'LineBoard' })
export type LineBoard = Static<typeof LineBoard>

export const schemas = [LineCallView, LineCallPage, LineKpis, LineBoard, ReviewBody]
