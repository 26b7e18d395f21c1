import { UploadOutlined } from '@ant-design/icons'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Form, Input, Space, Table, Upload } from 'antd'
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

/** a recording the service refused (its 422 `type` wav_*), in words: what the file is, and what is accepted */
function refusedFile (t: TFunction, problem: ApiProblem): string | undefined {
  const refusal = Array.isArray(problem.detail) ? problem.detail.find((p) => p.type.startsWith('wav_')) : undefined
  if (problem.status !== 422 || !refusal) return undefined
  const found = refusal.ctx?.found as { pcm: boolean, audio_format: number, bits: number, channels: number, sample_rate: number } | undefined
  const what = found
    ? t('routing.prompts.found', {
      format: found.pcm ? t('routing.prompts.pcm', { bits: found.bits }) : t('routing.prompts.notPcm', { code: found.audio_format }),
      channels: found.channels === 1 ? t('routing.prompts.mono') : t('routing.prompts.channels', { count: found.channels }),
      rate: found.sample_rate,
    })
    : t(`routing.prompts.${refusal.type === 'wav_no_sound' ? 'noSound' : 'notWav'}`)
  return `${t('routing.prompts.badFile')}. ${what}`
}

/** recorded prompts: a recording in Russian and in Kazakh each, uploaded and played back here */
export function PromptsTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const prompts = useQuery(promptsQuery(tenant))
  const [editing, setEditing] = useState<Prompt | 'new'>()
  const remove = useAction(keys.admin.routing.all, (p: Prompt) => removePrompt(tenant, p.id))
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.prompts.add')}</Button>
      <Alert type='info' showIcon message={t('routing.prompts.accepted')} />
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
  const upload = useMutation({
    mutationFn: (file: File) => uploadRecording(tenant, prompt.id, language, file),
    onSuccess: () => { void message.success(t('routing.prompts.uploaded')); void refresh() },
    // a refused file is said in the console's language, with what the service found in it
    onError: (problem: ApiProblem) => { void message.error(refusedFile(t, problem) ?? problemText(t, problem), 6) },
  })
  const drop = useAction(keys.admin.routing.all, () => removeRecording(tenant, prompt.id, language))
  const label = `${prompt.name}: ${t(`routing.languages.${language}`)}`
  return (
    <Space direction='vertical' size={4}>
      {recording && audio.data && <audio controls src={audio.data} preload='none' aria-label={label} data-testid={`recording-${prompt.id}-${language}`} />}
      {recording && <span style={{ color: '#666' }}>{t('routing.prompts.about', { seconds: format.number(recording.duration_ms / 1000), rate: recording.sample_rate / 1000 })}</span>}
      <Space>
        <Upload accept='.wav,audio/wav' showUploadList={false} beforeUpload={(file) => { upload.mutate(file); return false }}>
          <Button size='small' icon={<UploadOutlined />} loading={upload.isPending} aria-label={`${t('routing.prompts.upload')}: ${label}`}>{recording ? t('routing.prompts.replace') : t('routing.prompts.upload')}</Button>
        </Upload>
        {recording && <Button size='small' danger onClick={() => drop.mutate(undefined)}>{t('terminals.delete')}</Button>}
      </Space>
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
