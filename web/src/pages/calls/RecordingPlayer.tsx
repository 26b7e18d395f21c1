import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Segmented, Skeleton, Space, Tooltip, Typography } from 'antd'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem, Schemas } from '../../api/client'
import { callRecordingsQuery, recordingSoundQuery } from '../../api/recordings'
import { useFormat } from '../../i18n/format'
import { clock } from '../board/LineBoard'

type Recording = Schemas['Recording']
const SPEEDS = [1, 1.5, 2] as const
const JUMP_SECONDS = 5
/** where a recording was left (seconds), kept across reloads of the page */
const positionKey = (id: number) => `recording-position:${id}`

/** a call's recorded legs, each with its player; nothing when the call has none the user may hear */
export function CallRecordings ({ linkedid }: { linkedid: string }) {
  const { t } = useTranslation()
  const legs = useQuery(callRecordingsQuery(linkedid))
  if (legs.isLoading) return <Skeleton active paragraph={{ rows: 1 }} />
  if (legs.isError) return <Alert type='error' showIcon message={t('recording.listFailed')} data-testid='recording-error' />
  if (!legs.data || legs.data.length === 0) return <Typography.Text type='secondary' data-testid='no-recording'>{t('recording.none')}</Typography.Text>
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      {legs.data.map((leg) => <RecordingPlayer key={leg.id} recording={leg} />)}
    </Space>
  )
}

/** why a recording cannot be heard: the key of its words */
function problemKey (problem: ApiProblem | null, recording: Recording) {
  if (recording.missing || problem?.status === 410) return 'recording.missing' as const
  if (problem?.status === 404 || problem?.status === 403) return 'recording.notAllowed' as const
  if (problem?.status === 0) return 'common.networkError' as const
  return 'recording.failed' as const
}

/**
 * One leg: the sound fetched once with the session's token and played from memory. Space plays and
 * pauses, the arrows jump 5 s, the speed is 1×, 1.5× or 2×; where it was left is kept across reloads.
 */
export function RecordingPlayer ({ recording }: { recording: Recording }) {
  const { t } = useTranslation()
  const format = useFormat()
  const audio = useRef<HTMLAudioElement>(null)
  const [speed, setSpeed] = useState<number>(1)
  const sound = useQuery({
    ...recordingSoundQuery(recording.id),
    enabled: !recording.missing, staleTime: Infinity, gcTime: 5 * 60_000, retry: false,
  })
  const url = useMemo(() => (sound.data ? URL.createObjectURL(sound.data) : undefined), [sound.data])
  useEffect(() => () => { if (url) URL.revokeObjectURL(url) }, [url])
  useEffect(() => { if (audio.current) audio.current.playbackRate = speed }, [speed, url])

  const jump = (seconds: number) => {
    const a = audio.current
    if (a) a.currentTime = Math.min(Math.max(0, a.currentTime + seconds), Number.isFinite(a.duration) ? a.duration : a.currentTime + seconds)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const a = audio.current
    if (!a || e.altKey || e.ctrlKey || e.metaKey) return
    if (e.key === ' ') { e.preventDefault(); void (a.paused ? a.play() : a.pause()) } else if (e.key === 'ArrowLeft') { e.preventDefault(); jump(-JUMP_SECONDS) } else if (e.key === 'ArrowRight') { e.preventDefault(); jump(JUMP_SECONDS) }
  }
  const title = (
    <Typography.Text type='secondary'>
      {t('recording.leg', { terminal: recording.terminal ?? '—', at: format.dateTime(recording.started_at), length: clock(recording.seconds) })}
    </Typography.Text>
  )
  if (recording.missing || sound.isError) {
    return <div>{title}<Alert type='warning' showIcon message={t(problemKey(sound.error as unknown as ApiProblem | null, recording))} data-testid='recording-error' /></div>
  }
  return (
    <div tabIndex={0} onKeyDown={onKeyDown} data-testid='recording-player' aria-label={t('recording.player')} style={{ outline: 'none' }}>
      {title}
      {!url
        ? <Skeleton.Input active block />
        : (
          <>
            <audio
              ref={audio} src={url} controls preload='auto' style={{ width: '100%', display: 'block' }} data-testid='recording-audio'
              onLoadedMetadata={(e) => {
                const kept = Number(localStorage.getItem(positionKey(recording.id)))
                if (kept > 0 && kept < e.currentTarget.duration) e.currentTarget.currentTime = kept
                e.currentTarget.playbackRate = speed
              }}
              onTimeUpdate={(e) => { localStorage.setItem(positionKey(recording.id), String(Math.floor(e.currentTarget.currentTime))) }}
              onEnded={() => { localStorage.removeItem(positionKey(recording.id)) }}
            />
            <Space wrap style={{ marginTop: 4 }}>
              <Tooltip title={t('recording.keys')}><Button size='small' onClick={() => jump(-JUMP_SECONDS)} aria-label={t('recording.back')}>−5 {t('recording.s')}</Button></Tooltip>
              <Button size='small' onClick={() => jump(JUMP_SECONDS)} aria-label={t('recording.forward')}>+5 {t('recording.s')}</Button>
              <Segmented<number> size='small' value={speed} onChange={setSpeed} options={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))} aria-label={t('recording.speed')} data-testid='recording-speed' />
            </Space>
          </>)}
    </div>
  )
}
