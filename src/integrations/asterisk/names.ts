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
/** the pause reason of an operator whose console is closed (DESIGN 9): the agents pause with it, the line's states read it as offline */
export const OFFLINE_PAUSE_REASON = 'offline'
/** what a terminal dials to test its sound: Asterisk's echo (the code FreePBX and Wazo give it) */
export const ECHO_TEST = '*43'

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
/** the dialplan application that announces `fields` */
export const announceCall = (fields: Record<string, string | number>) => `UserEvent(${APPEALS_CALL_EVENT},${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join(',')})`
/** whether an AMI event is the dialplan's announcement of a call */
export const isCallAnnouncement = (m: AmiMessage) => field(m, 'Event') === 'UserEvent' && field(m, 'UserEvent') === APPEALS_CALL_EVENT
