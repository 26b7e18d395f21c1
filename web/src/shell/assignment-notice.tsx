import { App, Button } from 'antd'
import { useEffect, useRef, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { Schemas } from '../api/client'
import { useLiveEvents, type LiveEvent } from '../live/live'

// An executor hears of an appeal handed to its organization wherever in the console they are: a
// chime (which they may turn off), a notice on the page, and, while the tab is not looked at, the
// count of them in its title, until it is looked at again.

const SOUND_KEY = 'console.notice.sound'
const OWN_CHANGE_MS = 15_000
const HANDED_OVER = new Set(['appeal.register', 'appeal.assign', 'appeal.redirect'])

const soundListeners = new Set<() => void>()
const soundOn = () => localStorage.getItem(SOUND_KEY) !== 'off'
function setSound (on: boolean) {
  localStorage.setItem(SOUND_KEY, on ? 'on' : 'off')
  for (const listener of soundListeners) listener()
}

/** whether the chime sounds, kept in the browser across sessions */
export function useNoticeSound (): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore((listener) => { soundListeners.add(listener); return () => { soundListeners.delete(listener) } }, soundOn)
  return [on, setSound]
}

const ownChanges = new Map<number, number>()
/** appeals this console is changing itself: their events are not news to its user */
export function markOwnChange (appealIds: number[]) {
  const now = Date.now()
  for (const id of appealIds) ownChanges.set(id, now)
}
function isOwnChange (appealId: number): boolean {
  const at = ownChanges.get(appealId)
  return at !== undefined && Date.now() - at < OWN_CHANGE_MS
}

let audio: AudioContext | undefined
/** two short tones, made here: no file to fetch, nothing to fail to load */
function chime () {
  audio ??= new AudioContext()
  void audio.resume()
  const start = audio.currentTime
  for (const [i, frequency] of [880, 1320].entries()) {
    const tone = audio.createOscillator()
    const volume = audio.createGain()
    tone.frequency.value = frequency
    volume.gain.setValueAtTime(0.0001, start + i * 0.18)
    volume.gain.exponentialRampToValueAtTime(0.2, start + i * 0.18 + 0.02)
    volume.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.18 + 0.16)
    tone.connect(volume).connect(audio.destination)
    tone.start(start + i * 0.18)
    tone.stop(start + i * 0.18 + 0.17)
  }
}

// whether the window has the focus, as its focus and blur events say (read once at load)
let focused = document.hasFocus()
window.addEventListener('focus', () => { focused = true })
window.addEventListener('blur', () => { focused = false })
const looked = () => document.visibilityState === 'visible' && focused

/** the notices of appeals handed to `organizationId` (an executor's staff; the centre's hear of none) */
export function AssignmentNotices ({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation()
  const { notification } = App.useApp()
  const navigate = useNavigate()
  const unseen = useRef(0)
  const title = () => t('app.title')

  useEffect(() => {
    const seen = () => {
      if (!looked() || unseen.current === 0) return
      unseen.current = 0
      document.title = title()
    }
    window.addEventListener('focus', seen)
    document.addEventListener('visibilitychange', seen)
    return () => {
      window.removeEventListener('focus', seen)
      document.removeEventListener('visibilitychange', seen)
    }
  })

  useLiveEvents((event: LiveEvent) => {
    if (!HANDED_OVER.has(event.type) || !('appeal_id' in event)) return
    const appeal = event as Schemas['AppealLiveEvent']
    if (appeal.organization_id !== organizationId || appeal.status !== 'assigned' || isOwnChange(appeal.appeal_id)) return
    if (soundOn()) {
      try { chime() } catch { /* a browser without audio still shows the notice */ }
    }
    // the notices live outside the router: the button navigates with this component's
    const key = `appeal-${appeal.appeal_id}`
    notification.info({
      key,
      title: t('inbox.notice', { number: appeal.number }),
      actions: <Button type='link' onClick={() => { notification.destroy(key); void navigate(`/appeals/${appeal.appeal_id}`) }}>{t('inbox.open')}</Button>,
      placement: 'bottomRight',
      role: 'status',
    })
    if (!looked()) {
      unseen.current++
      document.title = t('inbox.noticeTitle', { count: unseen.current, title: title() })
    }
  })
  return null
}
