import { AmiError, type AmiClient } from './client.js'
import { field, fieldList, type AmiMessage } from './protocol.js'

/** What the service asks of Asterisk. */
export interface PbxControl {
  /** a CLI command through AMI `Command`; answers the output lines */
  command: (command: string) => Promise<string[]>
  /** a reloading CLI command: on a connection of its own, given AMI_RELOAD_TIMEOUT (Asterisk answers one session's actions in turn: a long reload would hold up every other) */
  reload: (command: string) => Promise<string[]>
  /** `startedAt`: when Asterisk started, as it says (its own zone): another value means it restarted */
  status: () => Promise<{ version: string | null, uptimeSeconds: number | null, lastReloadSeconds: number | null, currentCalls: number | null, startedAt: string | null }>
  /** registration state of PJSIP endpoints */
  endpointStates: () => Promise<EndpointState[]>
  /** the endpoints Asterisk has (names) and its outbound registrations (PJSIPShowRegistrationsOutbound) */
  trunkStates: () => Promise<TrunkStates>
  /** a value in Asterisk's own database (AstDB), which the dialplan reads with DB() */
  dbPut: (family: string, key: string, value: string) => Promise<void>
  /** a value removed from Asterisk's database; one that is not there is no error (but Asterisk logs a WARNING: ask `dbFamily` first) */
  dbDel: (family: string, key: string) => Promise<void>
  /** every key of a family in Asterisk's database with its value (DBGetTree), keys without the family */
  dbFamily: (family: string) => Promise<Map<string, string>>
}

export interface TrunkStates {
  endpoints: string[]
  registrations: { id: string, status: string | null, server_uri: string | null, next_registration_seconds: number | null }[]
}

export interface EndpointState {
  id: string
  device_state: string | null
  contacts: { uri: string, user_agent: string | null, status: string | null, roundtrip_ms: number | null }[]
}

const number = (v: string | undefined) => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : null)

function ensureSuccess (response: AmiMessage, what: string): AmiMessage {
  if (field(response, 'Response') !== 'Success') throw new AmiError(`${what}: ${field(response, 'Message') ?? 'refused'}`)
  return response
}

/** An empty PJSIP list is an error in AMI ("No endpoints found", "No Contacts found"): here it is empty. */
async function pjsipList (ami: AmiClient, action: string): Promise<AmiMessage[]> {
  const { response, events } = await ami.list({ Action: action })
  if (field(response, 'Response') === 'Error' && /^No \w+ found/i.test(field(response, 'Message') ?? '')) return []
  ensureSuccess(response, action)
  return events
}

/** whether Asterisk answers an action now (readiness): a CoreStatus, refused with the reason otherwise */
export function amiAnswers (ami: AmiClient): () => Promise<void> {
  return async () => { ensureSuccess(await ami.action({ Action: 'CoreStatus' }), 'CoreStatus') }
}

/** `reloads`: the connection reloads run on and how long one may take (else `ami`'s, and its time-out) */
export function amiPbxControl (ami: AmiClient, reloads?: { client: AmiClient, timeoutMs: number }): PbxControl {
  const commandOn = (client: AmiClient, timeoutMs?: number) => async (text: string) =>
    fieldList(ensureSuccess(await client.action({ Action: 'Command', Command: text }, { timeoutMs }), text), 'Output')
  const command = commandOn(ami)
  return {
    command,
    reload: reloads ? commandOn(reloads.client, reloads.timeoutMs) : command,
    async status () {
      const settings = ensureSuccess(await ami.action({ Action: 'CoreSettings' }), 'CoreSettings')
      const core = ensureSuccess(await ami.action({ Action: 'CoreStatus' }), 'CoreStatus')
      // CoreStatus gives dates in the server's own time zone; the CLI gives seconds, which need none
      const uptime = (await command('core show uptime seconds')).join('\n')
      return {
        version: field(settings, 'AsteriskVersion') ?? null,
        uptimeSeconds: number(/System uptime:\s*(\d+)/.exec(uptime)?.[1]),
        lastReloadSeconds: number(/Last reload:\s*(\d+)/.exec(uptime)?.[1]),
        currentCalls: number(field(core, 'CoreCurrentCalls')),
        startedAt: field(core, 'CoreStartupDate') && field(core, 'CoreStartupTime') ? `${field(core, 'CoreStartupDate')} ${field(core, 'CoreStartupTime')}` : null,
      }
    },
    async endpointStates () {
      const [endpoints, contacts] = await Promise.all([pjsipList(ami, 'PJSIPShowEndpoints'), pjsipList(ami, 'PJSIPShowContacts')])
      return endpoints.map((e) => {
        const id = field(e, 'ObjectName') ?? ''
        return {
          id,
          device_state: field(e, 'DeviceState') ?? null,
          contacts: contacts.filter((c) => field(c, 'Endpoint') === id).map((c) => {
            const usec = number(field(c, 'RoundtripUsec'))
            return { uri: field(c, 'Uri') ?? '', user_agent: field(c, 'UserAgent') || null, status: field(c, 'Status') ?? null, roundtrip_ms: usec === null ? null : usec / 1000 }
          }),
        }
      })
    },
    async dbPut (family, key, value) {
      ensureSuccess(await ami.action({ Action: 'DBPut', Family: family, Key: key, Val: value }), 'DBPut')
    },
    async dbDel (family, key) {
      const response = await ami.action({ Action: 'DBDel', Family: family, Key: key })
      // Asterisk 22 says a missing key "could not be deleted" (main/db.c)
      if (field(response, 'Response') !== 'Success' && !/could not be deleted|not found/i.test(field(response, 'Message') ?? '')) ensureSuccess(response, 'DBDel')
    },
    async dbFamily (family) {
      const { response, events } = await ami.list({ Action: 'DBGetTree', Family: family })
      ensureSuccess(response, 'DBGetTree')
      const prefix = `/${family}/`
      return new Map(events.filter((e) => field(e, 'Event') === 'DBGetTreeResponse' && (field(e, 'Key') ?? '').startsWith(prefix))
        .map((e) => [field(e, 'Key')!.slice(prefix.length), field(e, 'Val') ?? '']))
    },
    async trunkStates () {
      // each registration's AuthDetail events carry its credentials: only the registrations are read
      const [endpoints, registrations] = await Promise.all([pjsipList(ami, 'PJSIPShowEndpoints'), pjsipList(ami, 'PJSIPShowRegistrationsOutbound')])
      return {
        endpoints: endpoints.map((e) => field(e, 'ObjectName') ?? ''),
        registrations: registrations.filter((r) => field(r, 'Event') === 'OutboundRegistrationDetail').map((r) => ({
          id: field(r, 'ObjectName') ?? '', status: field(r, 'Status') ?? null, server_uri: field(r, 'ServerUri') ?? null, next_registration_seconds: number(field(r, 'NextReg')),
        })),
      }
    },
  }
}
