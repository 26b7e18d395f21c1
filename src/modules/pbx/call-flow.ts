// A citizen's call through the generated dialplan (DESIGN 9): the inbound context the trunk enters,
// each line opened by its schedule, the menus that set the call's language, the queues with their
// overflow. Pure functions from rows to text, like the rest of the generators: same rows, same bytes.
// Every name written is made of ids and digits; free text only reaches comments.
import { announceCall, CALENDAR_CONTEXT, INBOUND_CONTEXT, LINE_SWITCH_FAMILY, memberInterface, menuName, promptSound, queueName, RECORD_CONTEXT, scheduleName } from '../../integrations/asterisk/names.js'
import { destinationOf, destinationProblem, destinationSteps as stepsTo, type DestinationContext } from '../call-routing/destinations.js'
import type { OrganizationRouting } from '../call-routing/queries.js'
import type { DestinationView } from '../call-routing/schemas.js'
import type { WorkingCalendar } from '../calendar/index.js'
import { comment, ordinal, sortedBy, yn } from './config-text.js'

type Queue = OrganizationRouting['queues'][number]
type Menu = OrganizationRouting['menus'][number]
type Schedule = OrganizationRouting['schedules'][number]
type Line = OrganizationRouting['lines'][number]

/** what the call flow needs of an organization */
export interface FlowOrganization {
  prefix: string
  name: string
  terminalIds: string[]
  routing: OrganizationRouting
  /** the deployment records calls (RECORDINGS_DIR is known to Asterisk): a line's `recording` takes effect */
  records: boolean
}

/** the centre's working calendar as the dialplan checks it: its hours, and its exceptions of two years */
export interface DialplanCalendar {
  timeZone: string
  /** HH:MM-HH:MM, its end the last minute inside the working day (GotoIfTime counts whole minutes) */
  workTimes: string
  years: [number, number]
  holidays: string[]
  workedDays: string[]
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`

/** the calendar's hours and its holidays and worked weekend days of `year` and the next */
export function dialplanCalendar (calendar: WorkingCalendar, year: number): DialplanCalendar {
  const inYears = ([day]: [string, unknown]) => day.startsWith(`${year}-`) || day.startsWith(`${year + 1}-`)
  const exceptions = [...calendar.exceptions].filter(inYears).sort(([a], [b]) => ordinal(a, b))
  return {
    timeZone: calendar.timeZone,
    workTimes: `${hhmm(calendar.workStartMinute)}-${hhmm(calendar.workEndMinute - 1)}`,
    years: [year, year + 1],
    holidays: exceptions.filter(([, kind]) => kind === 'holiday').map(([day]) => day),
    workedDays: exceptions.filter(([, kind]) => kind === 'working').map(([day]) => day),
  }
}

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']

/** what the call is told to the service with (DESIGN 9), keyed by the channel's Linkedid */
const announce = announceCall

/** what the registry of destinations needs of the organization (call-routing/destinations.ts) */
const destinationContext = (org: FlowOrganization): DestinationContext => ({
  prefix: org.prefix, queues: org.routing.queues, recorded: new Set(org.routing.prompts.map((p) => p.id)), announce,
})

/** the dialplan steps that send the call on (the last of them ends or leaves the context); a destination that ends the call says so */
const destinationSteps = (org: FlowOrganization, d: DestinationView): string[] => stepsTo(destinationContext(org), d)

/** a step, or a step with a label other steps jump to */
type Step = string | { label: string, step: string }
/** an extension's steps: `exten => name,1,...` then ` same => n,...` */
function extension (name: string, body: Step[]): string[] {
  return body.map((s, i) => {
    const [label, step] = typeof s === 'string' ? [undefined, s] : [s.label, s.step]
    return i === 0 ? `exten => ${name},1${label ? `(${label})` : ''},${step}` : ` same => n${label ? `(${label})` : ''},${step}`
  })
}
const labelled = (label: string, body: string[]): Step[] => body.map((step, i) => (i === 0 ? { label, step } : step))

/** the queue's rating menu, when its prompt has a recording */
const ratingPrompt = (org: FlowOrganization, q: Queue) =>
  q.rating_prompt_id !== null && org.routing.prompts.some((p) => p.id === q.rating_prompt_id) ? promptSound(org.prefix, q.rating_prompt_id) : undefined

/**
 * A queue's entry: waits at most its max_wait, then (or when it cannot be joined) the overflow
 * destination. The answering operator's channel runs the recording subroutine. With a rating menu the
 * caller stays when the operator hangs up (`c`): an answered call (MEMBERINTERFACE set by
 * setinterfacevar) hears the prompt, and a digit 1-5 is announced as the call's `Rating`.
 */
function queueContext (org: FlowOrganization, q: Queue): string[] {
  const name = queueName(org.prefix, q)
  const rating = ratingPrompt(org, q)
  const callback = callbackOffer(org, q)
  // t: the operator may pass the caller on (the console's transfers are Asterisk's, Atxfer needs it); c: the caller goes on to the rating
  const args = [name, `t${rating ? 'c' : ''}`, '', '', q.max_wait ? String(q.max_wait) : '', '', org.records ? RECORD_CONTEXT : '']
  while (args.at(-1) === '') args.pop()
  const rated: Step[] = rating
    ? [...labelled('rating', [`Read(APPEALS_RATING,${rating},1,,1,${q.rating_timeout})`, 'GotoIf($[${REGEX("^[1-5]$" ${APPEALS_RATING})}]?rated)', 'Hangup()']),
        ...labelled('rated', [announce({ Rating: '${APPEALS_RATING}' }), 'Hangup()'])]
    : []
  return [
    `[${name}]`, `; queue ${q.id}: ${comment(q.name)}`,
    ...extension('s', [
      // when the caller joined: their place, should they ask to be called back
      ...(callback ? ['Set(APPEALS_JOINED=${EPOCH})'] : []),
      `Queue(${args.join(',')})`, ...(rating ? ['GotoIf($["${MEMBERINTERFACE}" != ""]?rating)'] : []),
      ...destinationSteps(org, destinationOf('overflow', q)), ...rated,
    ]),
    '',
    ...(callback ? callbackContext(q, name) : []),
  ]
}

/** the digit that asks for a callback while waiting in a queue that offers one */
export const CALLBACK_DIGIT = '1'
/** the context a waiting caller's digit leads to (queues.conf `context=`): Asterisk takes a digit only if it has an extension here */
export const callbackContextName = (queue: string) => `${queue}-callback`

/** the queue's callback offer, when it makes one and its prompt has a recording */
export const callbackOffer = (org: FlowOrganization, q: Queue) =>
  q.callback_offer_after !== null && q.callback_prompt_id !== null && org.routing.prompts.some((p) => p.id === q.callback_prompt_id)
    ? { sound: promptSound(org.prefix, q.callback_prompt_id), every: q.callback_offer_after }
    : undefined

/** a caller who pressed the digit leaves the queue here: the request told to the service (with when they joined), then the call ends */
function callbackContext (q: Queue, name: string): string[] {
  return [
    `[${callbackContextName(name)}]`, `; queue ${q.id}: the caller asked to be called back, keeping their place`,
    ...extension(CALLBACK_DIGIT, [announce({ Callback: q.id, Queue: name, Joined: '${APPEALS_JOINED}', Line: '${APPEALS_LINE}' }), 'Hangup()']),
    '',
  ]
}

/**
 * The recording of an operator's leg (DESIGN 10): both parties mixed from the answer to the hang-up,
 * as `<Linkedid>-<Uniqueid>-<terminal>.wav` in the directory Asterisk shares with the service, when
 * the line the call came in on records (`APPEALS_RECORD`, inherited by every channel of the call).
 * A call the service placed runs this on the citizen's channel: its terminal is the user's
 * (`APPEALS_TERMINAL`, inherited), not the trunk's.
 */
export function recordContext (dir: string): string[] {
  return [
    `[${RECORD_CONTEXT}]`, '; a leg of a recorded call: MixMonitor on the answering channel, from its answer to the hang-up',
    'exten => s,1,GotoIf($["${APPEALS_RECORD}" != "1"]?done)',
    ` same => n,MixMonitor(${dir}/\${CHANNEL(linkedid)}-\${UNIQUEID}-\${IF($["\${APPEALS_TERMINAL}" != ""]?\${APPEALS_TERMINAL}:\${CHANNEL(endpoint)})}.wav)`,
    ' same => n(done),Return()',
    '',
  ]
}

/** a menu: its prompt played `attempts` times while a digit is awaited; a digit may set the call's language */
function menuContext (org: FlowOrganization, m: Menu, recorded: Set<number>): string[] {
  const prompt = m.prompt_id !== null && recorded.has(m.prompt_id) ? [`Background(${promptSound(org.prefix, m.prompt_id)})`] : []
  const out = [
    `[${menuName(org.prefix, m.id)}]`, `; menu ${m.id}: ${comment(m.name)}`,
    ...extension('s', ['Set(APPEALS_TRIES=0)', announce({ Menu: m.id }), { label: 'prompt', step: 'Set(APPEALS_TRIES=$[${APPEALS_TRIES} + 1])' }, ...prompt, `WaitExten(${m.timeout})`]),
  ]
  for (const o of m.options) {
    out.push(...extension(o.digit, [
      ...(o.language ? [`Set(CHANNEL(language)=${o.language})`, `Set(__APPEALS_LANG=${o.language})`] : []),
      // not `Language`: the event carries the channel's own `Language` field too
      announce({ Menu: m.id, Choice: o.digit, ...(o.language ? { ChosenLanguage: o.language } : {}) }),
      ...destinationSteps(org, destinationOf('dest', o)),
    ]))
  }
  // nothing pressed or a wrong digit: the menu again while it has attempts left, then its destination
  const again = `GotoIf($[\${APPEALS_TRIES} < ${m.attempts}]?s,prompt)`
  out.push(...extension('t', [again, announce({ Menu: m.id, Exit: 'timeout' }), ...destinationSteps(org, destinationOf('timeout', m))]))
  out.push(...extension('i', [again, announce({ Menu: m.id, Exit: 'invalid' }), ...destinationSteps(org, destinationOf('invalid', m))]), '')
  return out
}

/** the last minute of a closing time: 18:00 closes after 17:59 (GotoIfTime's ranges are whole minutes) */
const lastMinute = (closes: string) => {
  const [h, m] = closes.split(':').map(Number) as [number, number]
  return hhmm(h * 60 + m - 1)
}

/** a schedule as a subroutine: Return(1) while open, Return(0) while closed */
function scheduleContext (org: FlowOrganization, s: Schedule, timeZone: string): string[] {
  const head = [`[${scheduleName(org.prefix, s.id)}]`, `; schedule ${s.id} (${s.kind}): ${comment(s.name)}`]
  if (s.kind === 'always') return [...head, 'exten => s,1,Return(1)', '']
  if (s.kind === 'calendar') return [...head, `exten => s,1,Gosub(${CALENDAR_CONTEXT},s,1)`, ' same => n,Return(${GOSUB_RETVAL})', '']
  const checks = s.hours.map((h) => `GotoIfTime(${h.opens.slice(0, 5)}-${lastMinute(h.closes)},${WEEKDAYS[h.weekday - 1]},*,*,${timeZone}?open)`)
  return [...head, ...extension('s', ['NoOp(weekly)', ...checks, 'Return(0)', { label: 'open', step: 'Return(1)' }]), '']
}

/** the centre's working calendar as one subroutine every calendar schedule asks */
export function calendarContext (c: DialplanCalendar): string[] {
  return [
    `[${CALENDAR_CONTEXT}]`,
    `; the centre's working calendar: ${c.workTimes} Monday to Friday in ${c.timeZone}, less its holidays, plus its worked weekend days (${c.years.join(' and ')})`,
    `exten => s,1,Set(APPEALS_DAY=\${STRFTIME(\${EPOCH},${c.timeZone},%Y-%m-%d)})`,
    ...c.holidays.map((day) => ` same => n,GotoIf($["\${APPEALS_DAY}" = "${day}"]?closed)`),
    ...c.workedDays.map((day) => ` same => n,GotoIf($["\${APPEALS_DAY}" = "${day}"]?hours)`),
    ` same => n,GotoIfTime(${c.workTimes},mon-fri,*,*,${c.timeZone}?open)`,
    ' same => n(closed),Return(0)',
    ` same => n(hours),GotoIfTime(${c.workTimes},*,*,*,${c.timeZone}?open:closed)`,
    ' same => n(open),Return(1)',
    '',
  ]
}

/** a line's entry in the inbound context: announced to the service, then open or closed by its schedule; an open recorded line tells the caller first */
function lineSteps (org: FlowOrganization, l: Line): string[] {
  const recorded = org.records && l.recording === 'always'
  const notice = recorded && l.recording_prompt_id !== null && org.routing.prompts.some((p) => p.id === l.recording_prompt_id)
    ? [`Playback(${promptSound(org.prefix, l.recording_prompt_id)})`]
    : []
  const open = [...notice, ...destinationSteps(org, destinationOf('dest', l))]
  const gate: Step[] = l.schedule_id === null
    ? open
    : [`Gosub(${scheduleName(org.prefix, l.schedule_id)},s,1)`, 'GotoIf($["${GOSUB_RETVAL}" = "1"]?open)', announce({ Closed: 1 }), ...destinationSteps(org, destinationOf('closed', l)), ...labelled('open', open)]
  // closed at a switch until a moment still ahead: its announcement, if any, then the end of the call
  const switched = [
    ...labelled('switched', [announce({ Closed: 1, Switch: 1 }), 'GotoIf($["${CUT(APPEALS_SWITCH,:,2)}" = ""]?switched-silent)']),
    announce({ Sent: 'announced' }), 'Playback(${CUT(APPEALS_SWITCH,:,2)})', 'Hangup()',
    ...labelled('switched-silent', [announce({ Sent: 'hangup' }), 'Hangup()']),
  ]
  return [`; ${comment(l.name)}`, ...extension(l.number, [
    `NoOp(line ${l.number} of organization ${org.prefix})`, 'Answer()', `Set(CHANNEL(language)=${l.language})`, `Set(__APPEALS_LINE=${l.number})`,
    ...(recorded ? ['Set(__APPEALS_RECORD=1)'] : []),
    announce({ Line: l.number, Organization: org.prefix }),
    `Set(APPEALS_SWITCH=\${DB(${LINE_SWITCH_FAMILY}/${l.number})})`, 'GotoIf($[0${CUT(APPEALS_SWITCH,:,1)} > ${EPOCH}]?switched)',
    ...gate, ...switched,
  ])]
}

/** the context the trunk enters: one extension a line; a number no organization owns is refused */
/**
 * An organization's lines in the inbound context: a section of its own in its own file. Asterisk
 * merges the sections of one context, so each organization's file carries its lines and an apply
 * rewrites only the files of the organizations that changed.
 */
export function inboundLines (org: FlowOrganization): string[] {
  if (org.routing.lines.length === 0) return []
  return [`[${INBOUND_CONTEXT}]`, ...sortedBy(org.routing.lines, (l) => l.number).flatMap((l) => lineSteps(org, l))]
}

/** the inbound context's own part: a number no organization owns */
export function inboundFallback (): string[] {
  return [
    `[${INBOUND_CONTEXT}]`, '; the public network\'s calls: the deployment\'s trunk endpoint has context=appeals-inbound',
    '; a number no organization owns is refused, never routed (and told to the service: the number\'s digits only)',
    ...['_X.', '_+X.', 's'].flatMap((pattern) => extension(pattern, [announce({ Line: '${FILTER(0-9+,${EXTEN})}', Refused: 1 }), 'Congestion(5)'])), '',
  ]
}

/** an organization's queues, menus and schedules as dialplan contexts */
export function organizationFlow (org: FlowOrganization, timeZone: string): string[] {
  const recorded = new Set(org.routing.prompts.map((p) => p.id))
  return [
    ...org.routing.queues.flatMap((q) => queueContext(org, q)),
    ...org.routing.menus.flatMap((m) => menuContext(org, m, recorded)),
    ...org.routing.schedules.flatMap((s) => scheduleContext(org, s, timeZone)),
  ]
}

/** a queue's section of queues.conf: its options and members (all the organization's terminals when it takes them all) */
export function queueSection (org: FlowOrganization, q: Queue): string[] {
  const recorded = new Set(org.routing.prompts.map((p) => p.id))
  const members = new Map<string, number>(q.all_terminals ? org.terminalIds.map((id) => [id, 0]) : [])
  for (const m of q.members) members.set(m.terminal_id, m.penalty)
  const periodic = q.periodic_prompt_id !== null && recorded.has(q.periodic_prompt_id)
  // the callback offer is the periodic announcement: after its seconds, and as often again
  const callback = callbackOffer(org, q)
  return [
    `; queue ${q.id}: ${comment(q.name)}`,
    `[${queueName(org.prefix, q)}]`,
    `strategy=${q.strategy}`, `timeout=${q.ring_timeout}`, `retry=${q.retry}`, `wrapuptime=${q.wrapup_time}`, `maxlen=${q.max_callers}`,
    `servicelevel=${q.service_level}`, `musicclass=${q.music_class}`,
    `announce-position=${yn(q.announce_position)}`, `announce-holdtime=${yn(q.announce_holdtime)}`,
    ...(q.announce_position || q.announce_holdtime ? [`announce-frequency=${q.periodic_announce_seconds}`] : []),
    ...(periodic ? [`periodic-announce=${promptSound(org.prefix, q.periodic_prompt_id!)}`, `periodic-announce-frequency=${q.periodic_announce_seconds}`] : []),
    ...(callback ? [`periodic-announce=${callback.sound}`, `periodic-announce-frequency=${callback.every}`, `context=${callbackContextName(queueName(org.prefix, q))}`] : []),
    'ringinuse=no', 'joinempty=yes', 'leavewhenempty=no',
    // the rating menu follows an answered call only (MEMBERINTERFACE on the caller's channel)
    ...(ratingPrompt(org, q) ? ['setinterfacevar=yes'] : []),
    ...sortedBy([...members], ([id]) => id).map(([id, penalty]) => `member => ${memberInterface(id)},${penalty},${id}`),
    '',
  ]
}

/** what would make a call go nowhere: a prompt played that has no recording */
export function flowProblems (org: FlowOrganization): string[] {
  const recorded = new Set(org.routing.prompts.map((p) => p.id))
  const out: string[] = []
  const played = (what: string, id: number | null) => { if (id !== null && !recorded.has(id)) out.push(`organization ${org.prefix}: ${what} plays prompt ${id}, which has no recording`) }
  const context = destinationContext(org)
  const sent = (what: string, d: DestinationView) => { const problem = destinationProblem(context, d); if (problem) out.push(`organization ${org.prefix}: ${what} ${problem}`) }
  for (const q of org.routing.queues) {
    played(`queue ${q.id}`, q.periodic_prompt_id)
    sent(`queue ${q.id}'s overflow`, destinationOf('overflow', q))
    played(`queue ${q.id}'s rating menu`, q.rating_prompt_id)
    if (q.callback_offer_after !== null) played(`queue ${q.id}'s callback offer`, q.callback_prompt_id)
  }
  for (const m of org.routing.menus) {
    played(`menu ${m.id}`, m.prompt_id)
    sent(`menu ${m.id}'s timeout`, destinationOf('timeout', m))
    sent(`menu ${m.id}'s invalid choice`, destinationOf('invalid', m))
    for (const o of m.options) sent(`menu ${m.id}'s digit ${o.digit}`, destinationOf('dest', o))
  }
  for (const l of org.routing.lines) {
    sent(`line ${l.number}`, destinationOf('dest', l))
    sent(`line ${l.number} when closed`, destinationOf('closed', l))
    if (l.recording === 'always') played(`line ${l.number}'s recording notice`, l.recording_prompt_id)
  }
  return out
}

/** a recording as a file under Asterisk's sounds directory */
export interface PromptFile { path: string, stamp: string, promptId: number, language: 'ru' | 'kk' }

/**
 * Where each recording goes: `<lang>/appeals/org<prefix>/<id>.wav` for each language it was recorded
 * in (`.wav16` at 16 kHz: Asterisk reads a `.wav` as 8 kHz), and the Russian one (or the only one) as
 * the language-less default Asterisk falls back to for a channel in another language.
 */
export function promptFiles (org: FlowOrganization): PromptFile[] {
  return org.routing.prompts.flatMap((p) => {
    const fallback = p.recordings.find((r) => r.language === 'ru') ?? p.recordings[0]
    const file = (dir: string, r: typeof p.recordings[number]) => ({
      path: `${dir}${promptSound(org.prefix, p.id)}.${r.sample_rate === 16_000 ? 'wav16' : 'wav'}`,
      // `pcm44`: files written before recordings were given the canonical header are written again
      stamp: `${r.language} ${r.uploaded_at.toISOString()} pcm44`,
      promptId: p.id,
      language: r.language,
    })
    return [...p.recordings.map((r) => file(`${r.language}/`, r)), ...(fallback ? [file('', fallback)] : [])]
  })
}
