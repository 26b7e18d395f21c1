import { AudioMutedOutlined, AudioOutlined, NumberOutlined, PauseCircleOutlined, PhoneOutlined, PlayCircleOutlined, SettingOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Button, Popover, Select, Space, Tag, Tooltip, Typography } from 'antd'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { keys } from '../api/keys'
import type { MyPhones } from '../api/agents'
import { useNow } from '../live/use-now'
import { startPhone, type Devices, type PhoneEngine, type PhoneState } from './engine'

// The phone in the console's header, on every page: its state, and the call's buttons while one rings
// or is talked on. Loaded only for an employee with a browser phone (its library is a chunk of its own).

const DEVICES = 'appeals.phone.devices'
const IDLE: PhoneState = { status: 'connecting', call: null }
const COLOR: Record<PhoneState['status'], string> = { connecting: 'gold', registered: 'green', reconnecting: 'gold', refused: 'red', no_microphone: 'red', unsupported: 'red' }
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#']

/**
 * The engine outlives the header that shows it: a header drawn anew (the console's language
 * switched, a page's boundary) takes up the same engine and its call, for the same key. Released
 * and not taken up again within a moment (signed out, the key renewed), it stops and unregisters.
 */
let running: { id: string, engine: PhoneEngine, holders: number, stopping?: ReturnType<typeof setTimeout> } | undefined

function takeEngine (id: string, start: () => PhoneEngine): { engine: PhoneEngine, release: () => void } {
  if (running?.id !== id) {
    running?.engine.stop()
    running = { id, engine: start(), holders: 0 }
  }
  const held = running
  clearTimeout(held.stopping)
  held.holders++
  return {
    engine: held.engine,
    release () {
      if (--held.holders > 0) return
      held.stopping = setTimeout(() => {
        if (held.holders > 0) return
        held.engine.stop()
        if (running === held) running = undefined
      }, 1000)
    },
  }
}

const storedDevices = (): Devices => {
  try { return JSON.parse(localStorage.getItem(DEVICES) ?? '{}') as Devices } catch { return {} }
}

const clock = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

export function PhoneDock ({ phones }: { phones: MyPhones }) {
  const { t, i18n } = useTranslation()
  const queries = useQueryClient()
  const phone = phones.phones[0]!
  const engine = useRef<PhoneEngine | null>(null)
  const [state, setState] = useState<PhoneState>(IDLE)
  const [devices, setDevices] = useState<Devices>(storedDevices)
  // the buttons act on whichever engine runs now (a renewed key starts another)
  const actions = useMemo<Actions>(() => ({
    answer: () => engine.current?.answer(),
    hangUp: () => engine.current?.hangUp(),
    mute: (on) => engine.current?.mute(on),
    hold: (on) => engine.current?.hold(on),
    dtmf: (tone) => engine.current?.dtmf(tone),
  }), [])

  useEffect(() => {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission().catch(() => {})
    const key = { websocketUrl: phones.websocket_url!, terminalId: phone.terminal_id, sipUri: phone.sip_uri, realm: phone.realm, ha1: phone.ha1 }
    const { engine: started, release } = takeEngine(Object.values(key).join(' '), () => startPhone(
      key,
      storedDevices(),
      {
        ringing (remote) {
          // the tab hidden behind another: the system says it
          if (document.hidden && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
            const shown = new Notification(i18n.t('softphone.incoming'), { body: i18n.t('softphone.from', { remote }), tag: 'appeals-call', requireInteraction: true })
            shown.onclick = () => { window.focus(); shown.close() }
          }
        },
      }
    ))
    engine.current = started
    const unsubscribe = started.subscribe(() => setState(started.state()))
    return () => {
      unsubscribe()
      release()
      if (engine.current === started) engine.current = null
    }
  // the console's language read when a call rings (i18n, not t); a header drawn anew takes up the running engine and its call
  }, [phones.websocket_url, phone.terminal_id, phone.sip_uri, phone.realm, phone.ha1, i18n])

  // a key refused: renewed by a sign-out elsewhere, or the terminal given to someone else; asked again
  useEffect(() => {
    if (state.status !== 'refused') return
    const again = setTimeout(() => { void queries.invalidateQueries({ queryKey: keys.agent.phones }) }, 5000)
    return () => clearTimeout(again)
  }, [state.status, queries])

  const choose = (next: Devices) => {
    setDevices(next)
    localStorage.setItem(DEVICES, JSON.stringify(next))
    engine.current?.setDevices(next)
  }

  const call = state.call
  return (
    <Space size='small' data-testid='phone' data-status={state.status} data-call={call?.state ?? 'none'}>
      <Tooltip title={t(`softphone.status.${state.status}`)}>
        <Tag color={COLOR[state.status]} icon={<PhoneOutlined aria-hidden />} data-testid='phone-status' style={{ marginInlineEnd: 0 }}>
          {phone.extension}
        </Tag>
      </Tooltip>
      {call?.state === 'ringing' && (
        <>
          <Typography.Text style={{ color: '#fff' }} data-testid='phone-caller'>{t('softphone.from', { remote: call.remote })}</Typography.Text>
          <Button type='primary' style={{ background: '#389e0d' }} onClick={() => actions.answer()}>{t('softphone.answer')}</Button>
          <Button danger onClick={() => actions.hangUp()}>{t('softphone.decline')}</Button>
        </>
      )}
      {call?.state === 'talking' && <Talking actions={actions} call={call} />}
      {!call && state.status !== 'registered' && (
        <Typography.Text style={{ color: '#ffd591', maxWidth: 260 }} ellipsis={{ tooltip: t(`softphone.status.${state.status}`) }} role='status'>
          {t(`softphone.status.${state.status}`)}
        </Typography.Text>
      )}
      <Popover trigger='click' title={t('softphone.settings')} content={<DeviceChoice devices={devices} onChange={choose} />}>
        <Button type='text' icon={<SettingOutlined aria-hidden style={{ color: '#fff' }} />} aria-label={t('softphone.settings')} title={t('softphone.settings')} />
      </Popover>
    </Space>
  )
}

type Actions = Pick<PhoneEngine, 'answer' | 'hangUp' | 'mute' | 'hold' | 'dtmf'>

function Talking ({ actions: engine, call }: { actions: Actions, call: NonNullable<PhoneState['call']> }) {
  const { t } = useTranslation()
  const now = useNow(1000)
  const keypad = (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 48px)', gap: 6 }}>
      {KEYS.map((k) => <Button key={k} onClick={() => engine.dtmf(k)}>{k}</Button>)}
    </div>
  )
  return (
    <>
      <Typography.Text style={{ color: '#fff', fontVariantNumeric: 'tabular-nums' }} data-testid='phone-timer'>
        {call.held ? t('softphone.held') : clock(now - (call.since ?? now))}
      </Typography.Text>
      <Tooltip title={t(call.muted ? 'softphone.unmute' : 'softphone.mute')}>
        <Button aria-label={t(call.muted ? 'softphone.unmute' : 'softphone.mute')} aria-pressed={call.muted} icon={call.muted ? <AudioMutedOutlined aria-hidden /> : <AudioOutlined aria-hidden />} onClick={() => engine.mute(!call.muted)} />
      </Tooltip>
      <Tooltip title={t(call.held ? 'softphone.unhold' : 'softphone.hold')}>
        <Button aria-label={t(call.held ? 'softphone.unhold' : 'softphone.hold')} aria-pressed={call.held} icon={call.held ? <PlayCircleOutlined aria-hidden /> : <PauseCircleOutlined aria-hidden />} onClick={() => engine.hold(!call.held)} />
      </Tooltip>
      <Popover trigger='click' content={keypad}>
        <Button aria-label={t('softphone.keypad')} title={t('softphone.keypad')} icon={<NumberOutlined aria-hidden />} />
      </Popover>
      <Button danger type='primary' onClick={() => engine.hangUp()}>{t('softphone.hangUp')}</Button>
    </>
  )
}

/** the microphone and the headset, from the browser's list (named once the microphone is allowed), remembered in this browser */
function DeviceChoice ({ devices, onChange }: { devices: Devices, onChange: (next: Devices) => void }) {
  const { t } = useTranslation()
  const [found, setFound] = useState<MediaDeviceInfo[]>([])
  useEffect(() => {
    void navigator.mediaDevices?.enumerateDevices().then(setFound).catch(() => {})
  }, [])
  const options = (kind: MediaDeviceKind) => [
    { value: '', label: t('softphone.systemDefault') },
    ...found.filter((d) => d.kind === kind && d.deviceId !== 'default' && d.deviceId !== '').map((d) => ({ value: d.deviceId, label: d.label || d.deviceId.slice(0, 8) })),
  ]
  return (
    <Space direction='vertical' style={{ width: 280 }}>
      <label>
        {t('softphone.microphone')}
        <Select style={{ width: '100%' }} aria-label={t('softphone.microphone')} value={devices.microphone ?? ''} options={options('audioinput')} onChange={(microphone) => onChange({ ...devices, microphone: microphone || undefined })} />
      </label>
      <label>
        {t('softphone.output')}
        <Select style={{ width: '100%' }} aria-label={t('softphone.output')} value={devices.output ?? ''} options={options('audiooutput')} onChange={(output) => onChange({ ...devices, output: output || undefined })} />
      </label>
    </Space>
  )
}
