import { UploadOutlined } from '@ant-design/icons'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Form, Input, Space, Table, Typography, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import type { ApiProblem } from '../../../api/client'
import { keys } from '../../../api/keys'
import { promptsQuery, recordingQuery, removePrompt, removeRecording, savePrompt, uploadRecording, type Language, type Prompt } from '../../../api/routing'
import { problemText } from '../../../forms/problems'
import { useFormat } from '../../../i18n/format'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'
import { PromptUses } from './PromptUses'

const LANGUAGES: Language[] = ['ru', 'kk']
/** what a terminal dials to record a prompt: *77*<prompt>*<1 Russian, 2 Kazakh> (the generated dialplan's) */
const BY_PHONE = '*77'
const BY_PHONE_DIGIT: Record<Language, number> = { ru: 1, kk: 2 }
/** what the file picker offers: any sound (the service reads what the file is from its bytes) */
const ACCEPT = 'audio/*,.wav,.mp3,.ogg,.opus,.oga,.m4a,.aac,.flac,.webm'

type RecordingSource = NonNullable<Prompt['recordings'][number]['source']>

/** what a recording was made from: "from MP3: 44.1 kHz, stereo, level -3.2 dB" */
function sourceText (t: TFunction, number: (n: number) => string, source: RecordingSource): string {
  if (source.format === 'phone') return t('routing.prompts.byPhoneFrom', { terminal: source.terminal ?? '', gain: `${source.gain_db > 0 ? '+' : ''}${number(source.gain_db)}` })
  const channels = source.channels === 1 ? t('routing.prompts.mono') : source.channels === 2 ? t('routing.prompts.stereo') : t('routing.prompts.channels', { count: source.channels })
  return t('routing.prompts.from', { format: source.format === 'mp4' ? 'M4A' : source.format.toUpperCase(), rate: number(source.sample_rate / 1000), channels, gain: `${source.gain_db > 0 ? '+' : ''}${number(source.gain_db)}` })
}

/** a file the service refused (its 422 `type`, or 413), in words, with what it found in the file */
function refusedFile (t: TFunction, problem: ApiProblem): string | undefined {
  if (problem.status === 413) return t('routing.prompts.refused.too_big')
  const refusal = Array.isArray(problem.detail) ? problem.detail.find((p) => /^(audio|wav)_/.test(p.type)) : undefined
  if (problem.status !== 422 || !refusal) return undefined
  const ctx = refusal.ctx as { format?: string, max_seconds?: number } | undefined
  return t(`routing.prompts.refused.${refusal.type}`, { format: (ctx?.format ?? '').toUpperCase(), max: ctx?.max_seconds, defaultValue: refusal.msg })
}

/** recorded prompts: a recording in Russian and in Kazakh each, uploaded and played back here */
export function PromptsTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  // a recording made by phone arrives without the page doing anything
  const prompts = useQuery({ ...promptsQuery(tenant), refetchInterval: 10_000 })
  const [editing, setEditing] = useState<Prompt | 'new'>()
  const remove = useAction(keys.admin.routing.all, (p: Prompt) => removePrompt(tenant, p.id))
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.prompts.add')}</Button>
      <Alert type='info' showIcon message={t('routing.prompts.accepted')} description={t('routing.prompts.byPhoneHow', { code: `${BY_PHONE}*N*1`, kk: `${BY_PHONE}*N*2` })} />
      <LoadError query={prompts} />
      <Table<Prompt>
        rowKey='id' size='small' loading={prompts.isLoading} dataSource={prompts.data} pagination={false} scroll={{ x: 'max-content' }} locale={{ emptyText: t('routing.prompts.empty') }} data-testid='prompts'
        columns={[
          { title: t('routing.name'), dataIndex: 'name' },
          ...LANGUAGES.map((language) => ({ title: t(`routing.languages.${language}`), key: language, render: (_: unknown, p: Prompt) => <Recording tenant={tenant} prompt={p} language={language} /> })),
          { title: t('routing.prompts.plays'), key: 'plays', render: (_: unknown, p: Prompt) => <PromptUses tenant={tenant} prompt={p} /> },
          {
            title: '', key: 'actions', render: (_, p) => <RowActions name={p.name} onEdit={() => setEditing(p)} onDelete={() => remove.mutate(p)} editText={t('routing.prompts.rename')} />,
          },
        ]}
      />
      {editing && <PromptForm tenant={tenant} prompt={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

/** a language's recording: played in the browser, replaced by an upload, or uploaded for the first time */
function Recording ({ tenant, prompt, language }: { tenant: number, prompt: Prompt, language: Language }) {
  const { t } = useTranslation()
  const format = useFormat()
  const { message } = App.useApp()
  const queries = useQueryClient()
  const recording = prompt.recordings.find((r) => r.language === language)
  const audio = useQuery({ ...recordingQuery(tenant, prompt.id, language, recording?.uploaded_at ?? ''), enabled: recording !== undefined })
  const refresh = () => queries.invalidateQueries({ queryKey: keys.admin.routing.all })
  const upload = useMutation<unknown, ApiProblem, File>({
    mutationFn: (file: File) => uploadRecording(tenant, prompt.id, language, file),
    onSuccess: () => { void message.success(t('routing.prompts.uploaded')); void refresh() },
  })
  // a refused file is said beside its button, in the console's language, until the next upload
  const refusal = upload.error ? refusedFile(t, upload.error) ?? problemText(t, upload.error) : undefined
  const drop = useAction(keys.admin.routing.all, () => removeRecording(tenant, prompt.id, language))
  const label = `${prompt.name}: ${t(`routing.languages.${language}`)}`
  return (
    <Space direction='vertical' size={4}>
      {recording && audio.data && <audio controls src={audio.data} preload='none' aria-label={label} data-testid={`recording-${prompt.id}-${language}`} />}
      {recording && <span style={{ color: '#666' }} data-testid={`recording-about-${prompt.id}-${language}`}>{t('routing.prompts.about', { seconds: format.number(recording.duration_ms / 1000), rate: recording.sample_rate / 1000 })}</span>}
      {recording?.source && <span style={{ color: '#666', fontSize: 12 }}>{sourceText(t, format.number, recording.source)}</span>}
      <Space>
        <Upload accept={ACCEPT} showUploadList={false} beforeUpload={(file) => { upload.mutate(file); return false }}>
          <Button size='small' icon={<UploadOutlined />} loading={upload.isPending} aria-label={`${t('routing.prompts.upload')}: ${label}`}>{recording ? t('routing.prompts.replace') : t('routing.prompts.upload')}</Button>
        </Upload>
        {recording && <Button size='small' danger onClick={() => drop.mutate(undefined)}>{t('terminals.delete')}</Button>}
      </Space>
      <Typography.Text type='secondary' style={{ fontSize: 12 }}>{t('routing.prompts.byPhone')} <Typography.Text code copyable>{`${BY_PHONE}*${prompt.id}*${BY_PHONE_DIGIT[language]}`}</Typography.Text></Typography.Text>
      {refusal && <Typography.Text type='danger' role='alert' style={{ maxWidth: 320 }} data-testid={`recording-refused-${prompt.id}-${language}`}>{refusal}</Typography.Text>}
    </Space>
  )
}

function PromptForm ({ tenant, prompt, onClose }: { tenant: number, prompt?: Prompt, onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(keys.admin.routing.all, (v: { name: string }) => savePrompt(tenant, prompt?.id, v.name), onClose)
  return (
    <FormModal title={prompt ? prompt.name : t('routing.prompts.add')} state={state} onClose={onClose} initialValues={prompt}>
      <Form.Item name='name' label={t('routing.name')} rules={[{ required: true, message: t('common.required') }, { max: 100 }]}><Input autoFocus /></Form.Item>
    </FormModal>
  )
}
