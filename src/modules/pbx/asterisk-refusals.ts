// What Asterisk refused in the files a reload read, from the warnings and errors it logged meanwhile,
// said per organization in Asterisk's own words. A line belongs to an organization when it names one
// of its files (`…/orgs/101/pjsip.conf`), one of its terminals (`with id '101001'`), or one of its
// contexts and queues (`org101-internal`, `org101-q2`); a line naming the main files or the trunks'
// belongs to the shared part; any other line is not about the generated files and is left out. The
// reload it came from is told by the file it names or the source that logged it (`app_queue.c`).
import type { AsteriskLogLine } from '../../integrations/asterisk-log/index.js'
import { PBX_SCOPE_SHARED } from '../../db/schema/pbx.js'

/** the reload whose files a line is about */
export type RefusingModule = 'pjsip' | 'dialplan' | 'queues'

export interface AsteriskRefusal {
  module: RefusingModule
  /** an organization's id, or the shared part (0) */
  scope: number
  /** its lines' messages, joined */
  message: string
}

/** a scope's lines are joined up to this length: enough to say what and where */
const MAX_MESSAGE = 2000

const ORG_FILE = /\/orgs\/(\d{3})\/(?:pjsip|queues|extensions)\.conf\b/
const TERMINAL_ID = /\bid '(\d{3})\d+'/
const ORG_NAME = /\borg(\d{3})-[\w-]+/
const SHARED_FILE = /\/(?:pjsip|pjsip-trunks|queues|extensions)\.conf\b/

/** the prefixes of the organizations whose files are on disk → their ids */
export function attributeRefusals (lines: AsteriskLogLine[], organizations: Map<string, number>, configDir: string): AsteriskRefusal[] {
  const byScope = new Map<string, { module: RefusingModule, scope: number, messages: string[] }>()
  for (const line of lines) {
    const scope = scopeOf(line.message, organizations, configDir)
    if (scope === undefined) continue
    const module = moduleOf(line)
    const key = `${module} ${scope}`
    const entry = byScope.get(key) ?? { module, scope, messages: [] }
    if (!entry.messages.includes(line.message)) entry.messages.push(line.message)
    byScope.set(key, entry)
  }
  return [...byScope.values()].map(({ module, scope, messages }) => ({ module, scope, message: clip(messages.join('; ')) }))
}

/** which reload logged it: by the file it names, else by the source that logged it */
function moduleOf (line: AsteriskLogLine): RefusingModule {
  if (/extensions\.conf\b/.test(line.message) || /^pbx(_config)?\.c$/.test(line.source)) return 'dialplan'
  if (/queues\.conf\b/.test(line.message) || line.source === 'app_queue.c') return 'queues'
  return 'pjsip'
}

function scopeOf (message: string, organizations: Map<string, number>, configDir: string): number | undefined {
  for (const pattern of [ORG_FILE, TERMINAL_ID, ORG_NAME]) {
    const prefix = pattern.exec(message)?.[1]
    const id = prefix === undefined ? undefined : organizations.get(prefix)
    if (id !== undefined) return id
  }
  if (message.includes(`${configDir}/`) && SHARED_FILE.test(message)) return PBX_SCOPE_SHARED
  return undefined
}

const clip = (text: string) => (text.length <= MAX_MESSAGE ? text : `${text.slice(0, MAX_MESSAGE - 1)}…`)
