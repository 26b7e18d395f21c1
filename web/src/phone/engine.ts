import JsSIP from 'jssip'
import type { RTCSession } from 'jssip/lib/RTCSession'
import type { IncomingRTCSessionEvent, RTCSessionEvent } from 'jssip/lib/UA'

// The operator's terminal as a phone in the browser (DESIGN 11): JsSIP registers it over Asterisk's
// WebSocket with the key of the operator's session, answers with the chosen microphone and plays the
// other side through the chosen output. One call at a time: a second is refused busy (486), so a
// queue tries the next operator at once.

/** what the phone can do now, said on the console in the operator's language */
export type PhoneStatus = 'connecting' | 'registered' | 'reconnecting' | 'refused' | 'no_microphone' | 'unsupported'

export interface PhoneCall {
  /** the caller's number as Asterisk gives it (the citizen's, or a colleague's extension) */
  remote: string
  state: 'ringing' | 'talking'
  held: boolean
  muted: boolean
  /** when it was answered (ms since the epoch): the call's timer */
  since: number | null
}

export interface PhoneState { status: PhoneStatus, call: PhoneCall | null }

export interface PhoneKey { websocketUrl: string, terminalId: string, sipUri: string, realm: string, ha1: string }

export interface Devices { microphone?: string, output?: string }

export interface PhoneEngine {
  state: () => PhoneState
  subscribe: (listener: () => void) => () => void
  answer: () => void
  hangUp: () => void
  mute: (on: boolean) => void
  hold: (on: boolean) => void
  /** a key of the keypad, sent in the media (RFC 4733), as the IVRs the operator reaches expect */
  dtmf: (tone: string) => void
  setDevices: (devices: Devices) => void
  stop: () => void
}

/** the call's ringing in the browser: Kazakhstan's ring (425 Hz, 1 s on, 4 s off), made here so no file is fetched */
function ringer (): { start: () => void, stop: () => void } {
  let context: AudioContext | undefined
  let timer: ReturnType<typeof setInterval> | undefined
  const burst = () => {
    if (!context) return
    const tone = context.createOscillator()
    const gain = context.createGain()
    tone.frequency.value = 425
    gain.gain.value = 0.2
    tone.connect(gain).connect(context.destination)
    tone.start()
    tone.stop(context.currentTime + 1)
  }
  return {
    start () {
      if (timer) return
      context ??= new AudioContext()
      void context.resume().catch(() => {})
      burst()
      timer = setInterval(burst, 5000)
    },
    stop () {
      clearInterval(timer)
      timer = undefined
    },
  }
}

/** the caller as the INVITE names them: the number, or the display name when there is none */
const remoteOf = (session: RTCSession) => session.remote_identity.uri.user || session.remote_identity.display_name || '—'

export function startPhone (key: PhoneKey, initial: Devices, hooks: { ringing?: (remote: string) => void } = {}): PhoneEngine {
  const listeners = new Set<() => void>()
  let current: PhoneState = { status: 'connecting', call: null }
  let session: RTCSession | undefined
  let devices = initial
  const ring = ringer()
  // in the page, not only in memory: a browser plays a remote stream surely only from an element it holds
  const speaker = document.body.appendChild(new Audio())
  speaker.autoplay = true
  speaker.dataset.testid = 'phone-audio'

  const set = (next: Partial<PhoneState>) => {
    current = { ...current, ...next }
    for (const listener of listeners) listener()
  }
  const setCall = (call: Partial<PhoneCall> | null) => set({ call: call === null ? null : { ...current.call!, ...call } })
  const routeOutput = async () => {
    const sink = speaker as HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> }
    if (devices.output && sink.setSinkId) await sink.setSinkId(devices.output).catch(() => {})
  }

  if (!window.RTCPeerConnection || !navigator.mediaDevices?.getUserMedia) {
    set({ status: 'unsupported' })
    return { state: () => current, subscribe: (listener) => { listener(); return () => {} }, answer () {}, hangUp () {}, mute () {}, hold () {}, dtmf () {}, setDevices () {}, stop () {} }
  }

  const ua = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(key.websocketUrl)],
    uri: key.sipUri,
    authorization_user: key.terminalId,
    realm: key.realm,
    ha1: key.ha1,
    // registered once the microphone is allowed (below), its WebSocket opened meanwhile
    register: false,
    // an expired registration is Asterisk's sign that the tab is gone: kept short
    register_expires: 120,
    session_timers: false,
    user_agent: 'appeals-console',
    connection_recovery_min_interval: 2,
    connection_recovery_max_interval: 30,
  })
  ua.on('registered', () => set({ status: 'registered' }))
  ua.on('disconnected', () => { if (current.status !== 'refused' && current.status !== 'no_microphone') set({ status: 'reconnecting' }) })
  ua.on('registrationFailed', (e) => set({ status: e.cause === JsSIP.C.causes.AUTHENTICATION_ERROR || e.cause === JsSIP.C.causes.REJECTED ? 'refused' : 'reconnecting' }))

  ua.on('newRTCSession', (event: RTCSessionEvent) => {
    if (event.originator !== 'remote') return
    const incoming = (event as IncomingRTCSessionEvent).session
    if (session) {
      incoming.terminate({ status_code: 486, reason_phrase: 'Busy Here' })
      return
    }
    session = incoming
    set({ call: { remote: remoteOf(incoming), state: 'ringing', held: false, muted: false, since: null } })
    ring.start()
    hooks.ringing?.(remoteOf(incoming))
    incoming.on('peerconnection', ({ peerconnection }) => {
      peerconnection.addEventListener('track', (e) => {
        speaker.srcObject = e.streams[0] ?? new MediaStream([e.track])
        void routeOutput().then(() => speaker.play()).catch(() => {})
      })
    })
    incoming.on('confirmed', () => { ring.stop(); setCall({ state: 'talking', since: Date.now() }) })
    incoming.on('accepted', () => ring.stop())
    incoming.on('hold', () => setCall({ held: true }))
    incoming.on('unhold', () => setCall({ held: false }))
    const ended = () => {
      ring.stop()
      if (session === incoming) session = undefined
      speaker.srcObject = null
      set({ call: null })
    }
    incoming.on('ended', ended)
    incoming.on('failed', ended)
  })

  /** asked for once at the start: a refused microphone is said before the first call rings, not at its answer */
  const askMicrophone = async (): Promise<boolean> => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: devices.microphone ? { deviceId: { exact: devices.microphone } } : true })
      for (const track of stream.getTracks()) track.stop()
      return true
    } catch {
      return false
    }
  }
  // the WebSocket opens while the microphone is asked for; the phone registers only once it may
  // answer (never rung into a tab with no microphone), and again at each reconnection
  let microphone = false
  ua.on('connected', () => { if (microphone) ua.register() })
  ua.start()
  void askMicrophone().then((allowed) => {
    if (!allowed) { set({ status: 'no_microphone' }); ua.stop(); return }
    microphone = true
    if (ua.isConnected()) ua.register()
  })

  // a tab closed: unregistered now rather than at the registration's expiry
  const leave = () => ua.stop()
  window.addEventListener('pagehide', leave)

  return {
    state: () => current,
    /** the listener is told at once (the state may have changed before it came), then at every change */
    subscribe (listener) {
      listeners.add(listener)
      listener()
      return () => listeners.delete(listener)
    },
    answer () {
      if (!session || current.call?.state !== 'ringing') return
      ring.stop()
      session.answer({ mediaConstraints: { audio: devices.microphone ? { deviceId: { exact: devices.microphone } } : true, video: false } })
    },
    hangUp () {
      ring.stop()
      session?.terminate()
    },
    mute (on) {
      if (!session) return
      if (on) session.mute({ audio: true })
      else session.unmute({ audio: true })
      setCall({ muted: on })
    },
    hold (on) {
      if (on) session?.hold()
      else session?.unhold()
    },
    dtmf (tone) {
      session?.sendDTMF(tone, { transportType: JsSIP.C.DTMF_TRANSPORT.RFC2833 })
    },
    setDevices (next) {
      devices = next
      void routeOutput()
    },
    stop () {
      window.removeEventListener('pagehide', leave)
      ring.stop()
      session?.terminate()
      ua.stop()
      speaker.remove()
      listeners.clear()
    },
  }
}
