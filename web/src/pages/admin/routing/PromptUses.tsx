import { useQuery } from '@tanstack/react-query'
import { Space, Tag, Tooltip, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { linesQuery, type Destination, type Language, type Prompt } from '../../../api/routing'
import { useQueueName, useRoutingChoices } from './choices'

interface Use { label: string, language?: Language }

const announces = (d: Pick<Destination, 'kind' | 'prompt_id'>, id: number) => d.kind === 'announcement' && d.prompt_id === id

/**
 * Where a prompt plays and which of its recordings the caller hears: a line's own prompts in the
 * line's language (before any choice), those of menus and queues in the caller's language; a
 * recording missing in the language heard is said (Asterisk plays the Russian one instead).
 */
export function PromptUses ({ tenant, prompt }: { tenant: number, prompt: Prompt }) {
  const { t } = useTranslation()
  const lines = useQuery(linesQuery(tenant)).data ?? []
  const { menus, queues } = useRoutingChoices(tenant)
  const queueName = useQueueName()
  const id = prompt.id
  const uses: Use[] = [
    ...lines.filter((l) => announces(l.destination, id) || announces(l.closed_destination, id) || l.recording_prompt_id === id)
      .map((l) => ({ label: t('routing.prompts.inLine', { number: l.number }), language: l.language })),
    ...menus.filter((m) => m.prompt_id === id || announces(m.timeout_destination, id) || announces(m.invalid_destination, id) || m.options.some((o) => announces(o.destination, id)))
      .map((m) => ({ label: t('routing.prompts.inMenu', { name: m.name }) })),
    ...queues.filter((q) => q.periodic_prompt_id === id || q.rating_prompt_id === id || q.callback_prompt_id === id || announces(q.overflow, id))
      .map((q) => ({ label: t('routing.prompts.inQueue', { name: queueName(q) }) })),
  ]
  if (uses.length === 0) return <Typography.Text type='secondary'>{t('routing.prompts.nowhere')}</Typography.Text>
  const recorded = new Set(prompt.recordings.map((r) => r.language))
  return (
    <Space size={4} wrap>
      {uses.map((u) => {
        const missing = u.language !== undefined && u.language !== 'ru' && !recorded.has(u.language)
        const said = `${u.label} · ${u.language ? t(`routing.languages.${u.language}`) : t('routing.prompts.callerLanguage')}`
        return missing
          ? <Tooltip key={u.label} title={t('routing.prompts.missing', { language: t(`routing.languages.${u.language!}`) })}><Tag color='orange'>{said}</Tag></Tooltip>
          : <Tag key={u.label}>{said}</Tag>
      })}
    </Space>
  )
}
