import { AmiError, AmiRefusal, type AmiClient } from './client.js'
import { field } from './protocol.js'

/** how a supervisor joins an operator's call (ChanSpy): hears it, speaks to the operator alone, or to both */
export type SpyMode = 'listen' | 'whisper' | 'barge'

/** ChanSpy's options: quiet (no beep, no name said), gone with the call (E), and the mode's own */
const SPY_OPTIONS: Record<SpyMode, string> = { listen: 'qE', whisper: 'qwE', barge: 'qBE' }

export interface CallOrder {
  /** the channel rung first: `PJSIP/<terminal>` */
  channel: string
  /** once it answers, this extension runs on it */
  context: string
  exten: string
  /** what the rung phone shows */
  callerId: string
  /** the new channel's Uniqueid, hence the call's Linkedid: its events are known by it */
  channelId?: string
  /** how long the first phone rings */
  ringSeconds: number
  /** channel variables (`__NAME` is inherited by the channels it dials) */
  variables?: Record<string, string>
}

/** a channel up on the PBX now (CoreShowChannels); `bridge`: the bridge it talks in, '' when in none */
export interface LiveChannel { channel: string, linkedid: string, state: string, bridge: string }

/** What the service asks of Asterisk to place calls (DESIGN 10): each resolves once Asterisk has taken the order (its progress comes as events). */
export interface CallControl {
  /** a PJSIP endpoint's device state (`Unavailable`: no phone registered), null when Asterisk has no such endpoint */
  deviceState: (endpoint: string) => Promise<string | null>
  /** the channels up now */
  channels: () => Promise<LiveChannel[]>
  originate: (order: CallOrder) => Promise<void>
  /** rings `channel`; once answered it joins the call of the channels whose names begin with `target` (`PJSIP/<terminal>-`) */
  spy: (order: Omit<CallOrder, 'context' | 'exten' | 'variables' | 'channelId'> & { target: string, mode: SpyMode }) => Promise<void>
  /** the party talking with `channel` goes to `exten@context`; `channel` is hung up (BlindTransfer) */
  blindTransfer: (channel: string, context: string, exten: string) => Promise<void>
  /** `channel` consults `exten@context` while its party waits on hold; the transfer completes when `channel` hangs up (Atxfer) */
  attendedTransfer: (channel: string, context: string, exten: string) => Promise<void>
  /** the consultation ended: `channel` is back with the party it put on hold (CancelAtxfer) */
  cancelTransfer: (channel: string) => Promise<void>
  /** the consultation becomes a three-way call: `channel`, the party on hold and the one consulted (the attended transfer's threeway code, as if `channel` pressed it) */
  joinConsultation: (channel: string) => Promise<void>
  hangUp: (channel: string) => Promise<void>
  /** a channel variable set (Setvar): `__NAME` is inherited by the channels it dials */
  setVariable: (channel: string, name: string, value: string) => Promise<void>
}

/** Originate, Async: Asterisk answers at once; the call's progress is in its events, keyed by `channelId` */
export function amiCallControl (ami: AmiClient): CallControl {
  async function act (fields: Record<string, string>): Promise<void> {
    const response = await ami.action(fields)
    if (field(response, 'Response') !== 'Success') throw new AmiRefusal(`${fields.Action}: ${field(response, 'Message') ?? 'refused'}`)
  }
  const originate = (fields: Record<string, string>) => act({ Action: 'Originate', Async: 'true', ...fields })
  const common = (o: Pick<CallOrder, 'channel' | 'callerId' | 'channelId' | 'ringSeconds'>) =>
    ({ Channel: o.channel, CallerID: o.callerId, Timeout: String(o.ringSeconds * 1000), ...(o.channelId ? { ChannelId: o.channelId } : {}) })
  return {
    async deviceState (endpoint) {
      const { response, events } = await ami.list({ Action: 'PJSIPShowEndpoint', Endpoint: endpoint })
      if (field(response, 'Response') !== 'Success') {
        if (/unable to retrieve|not found/i.test(field(response, 'Message') ?? '')) return null
        throw new AmiError(`PJSIPShowEndpoint: ${field(response, 'Message') ?? 'refused'}`)
      }
      return field(events.find((e) => field(e, 'Event') === 'EndpointDetail') ?? {}, 'DeviceState') ?? null
    },
    async channels () {
      const { response, events } = await ami.list({ Action: 'CoreShowChannels' })
      if (field(response, 'Response') !== 'Success') throw new AmiError(`CoreShowChannels: ${field(response, 'Message') ?? 'refused'}`)
      return events.filter((e) => field(e, 'Event') === 'CoreShowChannel')
        .map((e) => ({ channel: field(e, 'Channel') ?? '', linkedid: field(e, 'Linkedid') ?? '', state: field(e, 'ChannelStateDesc') ?? '', bridge: field(e, 'BridgeId') ?? '' }))
    },
    originate: (o) => originate({
      ...common(o), Context: o.context, Exten: o.exten, Priority: '1',
      ...(o.variables && Object.keys(o.variables).length > 0 ? { Variable: Object.entries(o.variables).map(([k, v]) => `${k}=${v}`).join(',') } : {}),
    }),
    spy: (o) => originate({ ...common(o), Application: 'ChanSpy', Data: `${o.target},${SPY_OPTIONS[o.mode]}` }),
    blindTransfer: (channel, context, exten) => act({ Action: 'BlindTransfer', Channel: channel, Context: context, Exten: exten }),
    attendedTransfer: (channel, context, exten) => act({ Action: 'Atxfer', Channel: channel, Context: context, Exten: exten }),
    cancelTransfer: (channel) => act({ Action: 'CancelAtxfer', Channel: channel }),
    // Asterisk has no action for it; its own Atxfer and CancelAtxfer queue their feature codes as
    // DTMF received on the channel, and so does this with the code features.conf sets (default *3)
    async joinConsultation (channel) {
      const code = field(await ami.action({ Action: 'Getvar', Channel: channel, Variable: 'FEATURE(atxferthreeway)' }), 'Value') || '*3'
      for (const digit of code) await act({ Action: 'PlayDTMF', Channel: channel, Digit: digit, Receive: 'yes' })
    },
    hangUp: (channel) => act({ Action: 'Hangup', Channel: channel }),
    setVariable: (channel, name, value) => act({ Action: 'Setvar', Channel: channel, Variable: name, Value: value }),
  }
}
