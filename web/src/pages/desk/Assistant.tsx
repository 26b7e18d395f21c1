import { useMutation } from '@tanstack/react-query'
import { Alert, Button, Card, Space, Tag, Typography } from 'antd'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import type { ApiProblem, Schemas } from '../../api/client'
import { classify, summarize, translate } from '../../api/llm'
import { problemText } from '../../forms/problems'
import { transcriptText, type DeskCall } from './call'

/** what the LLM proposes for the appeal form */
export interface Suggestion { text?: string, subcategoryId?: number, language?: 'kk' | 'ru' }

type Task = Schemas['TaskResponse']
type Result = Record<string, unknown>

/**
 * The LLM buttons: a summary, a translation either way, a classification suggestion. Each runs on
 * its own: the operator keeps typing while the model thinks, and a slow or failing model only says
 * so in its own card.
 */
export function Assistant ({ call, onSuggestion }: { call: DeskCall | null, onSuggestion: (s: Suggestion) => void }) {
  const { t } = useTranslation()
  const text = call ? transcriptText(call) : ''
  // The suggestions are handed over in mutate()'s own callbacks: those are dropped when the desk
  // moves on to the next call (this card is made anew), so a late answer never fills the next call's form.
  const summary = useMutation({ mutationFn: () => summarize(text) })
  const suggestSummary = (task: Task) => {
    const result = task.result as Result | null
    if (task.success && result) onSuggestion({ text: String(result.summary ?? ''), language: result.language === 'kk' ? 'kk' : result.language === 'ru' ? 'ru' : undefined })
  }
  const translation = useMutation({
    mutationFn: (direction: 'auto-ru' | 'auto-kk') => translate(text, direction),
  })
  const classification = useMutation({ mutationFn: () => classify(text) })
  const suggestClassification = (task: Task) => {
    const id = (task.result as Result | null)?.category_id
    if (task.success && typeof id === 'number') onSuggestion({ subcategoryId: id })
  }
  const none = text.trim() === ''
  return (
    <Card size='small' title={t('desk.assistant.title')} data-testid='assistant'>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button onClick={() => summary.mutate(undefined, { onSuccess: suggestSummary })} loading={summary.isPending} disabled={none}>{t('desk.assistant.summary')}</Button>
        <Button onClick={() => translation.mutate('auto-ru')} loading={translation.isPending && translation.variables === 'auto-ru'} disabled={none}>{t('desk.assistant.toRussian')}</Button>
        <Button onClick={() => translation.mutate('auto-kk')} loading={translation.isPending && translation.variables === 'auto-kk'} disabled={none}>{t('desk.assistant.toKazakh')}</Button>
        <Button onClick={() => classification.mutate(undefined, { onSuccess: suggestClassification })} loading={classification.isPending} disabled={none}>{t('desk.assistant.classify')}</Button>
      </Space>
      {none && <Typography.Paragraph type='secondary'>{t('desk.assistant.needsTranscript')}</Typography.Paragraph>}
      <TaskResult
        title={t('desk.assistant.summary')} state={summary} testId='summary' render={(r) => (
          <>
            <Typography.Paragraph>{String(r.summary ?? '')}</Typography.Paragraph>
            {Array.isArray(r.key_points) && r.key_points.length > 0 && <ul>{r.key_points.map((p, i) => <li key={i}>{String(p)}</li>)}</ul>}
            {typeof r.citizen_request === 'string' && r.citizen_request && <Typography.Paragraph><b>{t('desk.assistant.request')}:</b> {r.citizen_request}</Typography.Paragraph>}
          </>
        )}
      />
      <TaskResult title={t('desk.assistant.translation')} state={translation} testId='translation' render={(r) => <Typography.Paragraph>{String(r.translation ?? '')}</Typography.Paragraph>} />
      <TaskResult
        title={t('desk.assistant.classification')} state={classification} testId='classification' render={(r) => (
          <Typography.Paragraph>
            {String(r.category ?? '')} <Tag>{t(`desk.assistant.confidence.${String(r.confidence)}`, { defaultValue: String(r.confidence ?? '') })}</Tag>
            {r.needs_human_review === true && <Tag color='orange'>{t('desk.assistant.review')}</Tag>}
            {typeof r.reasoning === 'string' && <><br /><Typography.Text type='secondary'>{r.reasoning}</Typography.Text></>}
          </Typography.Paragraph>
        )}
      />
    </Card>
  )
}

interface TaskState { data?: Task, error: unknown, isError: boolean }

function TaskResult ({ title, state, render, testId }: { title: string, state: TaskState, render: (result: Result) => React.ReactNode, testId: string }) {
  const { t } = useTranslation()
  if (state.isError) return <Alert type='error' showIcon message={title} description={taskProblem(state.error as ApiProblem, t)} style={{ marginTop: 8 }} />
  const task = state.data
  if (!task) return null
  if (!task.success || !task.result) return <Alert type='warning' showIcon message={title} description={t('desk.assistant.failed', { error: task.error ?? '' })} style={{ marginTop: 8 }} />
  return (
    <div data-testid={testId} style={{ marginTop: 8, borderTop: '1px solid #f0f0f0', paddingTop: 8 }}>
      <Typography.Text strong>{title}</Typography.Text> <Typography.Text type='secondary'>({task.provider}, {task.processing_time.toFixed(1)} s)</Typography.Text>
      {render(task.result)}
    </div>
  )
}

function taskProblem (problem: ApiProblem, t: TFunction): string {
  if (problem.status === 503) return t('desk.assistant.unavailable')
  return problemText(t, problem)
}
