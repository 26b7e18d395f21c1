// What the service and Asterisk agree on (DESIGN 9): every name the service gives Asterisk, made of an
// organization's prefix and ids only, never of free text (the API answers them, the PBX's files are
// written with them), the dialplan's announcement of a call, and the shape of a call's Linkedid.
import { field, type AmiMessage } from '../ami/protocol.js'

export const queueName = (prefix: string, q: { id: number, is_default: boolean }) => q.is_default ? defaultQueueName(prefix) : `org${prefix}-q${q.id}`
/** the organization's own queue: every terminal of it is a member */
export const defaultQueueName = (prefix: string) => `org${prefix}-queue`
/** the context of the organization's terminals' own calls (and of its extensions) */
export const internalContext = (prefix: string) => `org${prefix}-internal`
/** a queue's name read back: its organization's prefix and its id, or the organization's own queue */
export function parseQueueName (name: string): { prefix: string, queue: number | 'default' } | undefined {
  const m = /^org([0-9]+)-(?:queue|q([0-9]{1,9}))$/.exec(name)
  if (!m) return undefined
  return { prefix: m[1]!, queue: m[2] === undefined ? 'default' : Number(m[2]) }
}
export const menuName = (prefix: string, id: number) => `org${prefix}-menu${id}`
export const scheduleName = (prefix: string, id: number) => `org${prefix}-sched${id}`
/** as the dialplan plays it: the channel's language picks `<sounds>/<lang>/appeals/org<prefix>/<id>.wav` */
export const promptSound = (prefix: string, id: number) => `appeals/org${prefix}/${id}`

/** a terminal as a queue member (and as a device): the generated queues name members `PJSIP/<terminal>` */
export const MEMBER_INTERFACE_PREFIX = 'PJSIP/'
export const memberInterface = (terminalId: string) => `${MEMBER_INTERFACE_PREFIX}${terminalId}`
/** the SIP terminal of a queue member's interface; undefined for any other (a Local channel, a trunk) */
export const terminalOfMember = (iface: string | null): string | undefined => /^PJSIP\/([0-9]{1,32})$/.exec(iface ?? '')?.[1]
/** the terminal's interface a channel is of (`PJSIP/404002-0000000f`: `PJSIP/404002`); undefined for a trunk's, a Local one */
export const interfaceOfChannel = (channel: string | undefined): string | undefined => /^(PJSIP\/[0-9]{1,32})-[0-9a-f]{1,16}$/.exec(channel ?? '')?.[1]
/** the endpoint's interface a channel of a trunk is of (`PJSIP/trunk1-00000012`: `PJSIP/trunk1`); undefined for a terminal's, a Local one */
export const trunkInterfaceOfChannel = (channel: string | undefined): string | undefined => {
  const iface = /^(PJSIP\/[A-Za-z0-9_.]{1,64})-[0-9a-f]{1,16}$/.exec(channel ?? '')?.[1]
  return iface === undefined || terminalOfMember(iface) !== undefined ? undefined : iface
}
/** the pause reason of an operator whose console is closed (DESIGN 9): the agents pause with it, the line's states read it as offline */
export const OFFLINE_PAUSE_REASON = 'offline'
/** what a terminal dials to test its sound: Asterisk's echo (the code FreePBX and Wazo give it) */
export const ECHO_TEST = '*43'

/**
 * What a terminal dials to reach one of its organization's queues other than its own (dialled as 0):
 * `*8<queue id>`, the first of its operators ready answers. Digits and `*` only: an attended transfer
 * (AMI Atxfer) sends the extension to Asterisk as DTMF.
 */
export const QUEUE_BY_PHONE = '*8'
export const queueExtension = (queueId: number) => `${QUEUE_BY_PHONE}${queueId}`

/** what an administrator's terminal dials to record a prompt: `*77*<prompt id>*<1 Russian | 2 Kazakh>` */
export const PROMPT_BY_PHONE = '*77'
export const PROMPT_BY_PHONE_LANGUAGES = { 1: 'ru', 2: 'kk' } as const
/** the organization's terminals that may record its prompts, as a context of their endpoint names (DIALPLAN_EXISTS) */
export const promptRecordersContext = (prefix: string) => `org${prefix}-prompt-recorders`
/** where Asterisk records a prompt by phone, under RECORDINGS_DIR: the service takes it from there */
export const PROMPT_DRAFTS_DIR = 'prompts'
/** a recording made by phone as Record() names it: `org<prefix>-<prompt>-<language digit>-<Uniqueid>.wav16` */
export const PROMPT_DRAFT_NAME = /^org([0-9]{1,10})-([0-9]{1,10})-([12])-([0-9]{1,20}\.[0-9]{1,10})\.wav16$/
/** the dialplan's word to the service that a prompt was recorded and kept by phone */
export const PROMPT_RECORDED_EVENT = 'AppealsPromptRecorded'

/** a call's Linkedid (its first channel's Uniqueid): seconds and a sequence, as Asterisk writes them */
export const LINKEDID_PATTERN = '[0-9]{1,20}\\.[0-9]{1,10}'
const LINKEDID = new RegExp(`^${LINKEDID_PATTERN}$`)
export const isLinkedid = (value: string) => LINKEDID.test(value)

/** the user event the generated dialplan tells the service of a call with (its fields: digits and fixed words) */
export const APPEALS_CALL_EVENT = 'AppealsCall'

/**
 * What the dialplan's announcement of a call may say, each field written by pbx/call-flow.ts (a
 * value or a dialplan expression such as `${APPEALS_RATING}`) and read by the line's tracker and
 * the callback placer: a field neither side knows cannot be written or read.
 */
export interface CallAnnouncement {
  /** the number called (the line), or the number refused */
  Line: string | number
  /** the organization's prefix */
  Organization: string
  Menu: number
  /** the digit pressed in the menu, and the language it chose */
  Choice: string
  ChosenLanguage: string
  Exit: 'timeout' | 'invalid'
  /** the line was closed (by its schedule, or at a switch: Switch) */
  Closed: 1
  Switch: 1
  /** where a closed line sent the call */
  Sent: 'announced' | 'hangup'
  /** a number no line has */
  Refused: 1
  /** the caller's rating, 1-5 */
  Rating: string
  /** the caller asked to be called back from this queue (its id), having joined it at Joined (epoch seconds) */
  Callback: number
  Queue: string
  Joined: string
}
const ANNOUNCED: (keyof CallAnnouncement)[] = ['Line', 'Organization', 'Menu', 'Choice', 'ChosenLanguage', 'Exit', 'Closed', 'Switch', 'Sent', 'Refused', 'Rating', 'Callback', 'Queue', 'Joined']

/** the dialplan application that announces `fields` */
export const announceCall = (fields: Partial<CallAnnouncement>) => `UserEvent(${APPEALS_CALL_EVENT},${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join(',')})`
/** whether an AMI event is the dialplan's announcement of a call */
export const isCallAnnouncement = (m: AmiMessage) => field(m, 'Event') === 'UserEvent' && field(m, 'UserEvent') === APPEALS_CALL_EVENT
/** the fields of the dialplan's announcement as Asterisk delivers them (text); undefined for another event */
export function readCallAnnouncement (m: AmiMessage): Partial<Record<keyof CallAnnouncement, string>> | undefined {
  if (!isCallAnnouncement(m)) return undefined
  return Object.fromEntries(ANNOUNCED.flatMap((name) => { const value = field(m, name); return value === undefined ? [] : [[name, value]] }))
}

/** the context of the calls to the organizations' lines (the trunks' and the test callers') */
export const INBOUND_CONTEXT = 'appeals-inbound'
/** the subroutine that tells whether the centre's calendar has a date as a working day */
export const CALENDAR_CONTEXT = 'appeals-calendar'
/** the subroutine run on an operator's channel when it answers (Queue's gosub, Dial's U option): it records the leg when the line records */
export const RECORD_CONTEXT = 'appeals-record'
/**
 * Asterisk's database family of the lines closed at a switch: key the line's number, value
 * `<until, epoch seconds>:<the announcement's sound, or nothing>`, read by every call (no reload).
 */
export const LINE_SWITCH_FAMILY = 'appeals-closed'
