import { useQuery } from '@tanstack/react-query'
import { Alert, Card, Empty, Table } from 'antd'
import { useTranslation } from 'react-i18next'
import { llmUsageQuery } from '../../api/llm'
import { useFormat } from '../../i18n/format'

/** the LLM's calls, failures, tokens and latency by day, provider and task over the board's period */
export function LlmUsage ({ from, to }: { from: string, to: string }) {
  const { t } = useTranslation()
  const format = useFormat()
  const usage = useQuery(llmUsageQuery(from, to))
  return (
    <Card size='small' title={t('board.llm')} data-testid='llm-usage'>
      {usage.isError && <Alert type='error' message={t('common.networkError')} />}
      {usage.data?.length === 0 && <Empty description={t('board.noLlm')} />}
      {(usage.isLoading || (usage.data && usage.data.length > 0)) && (
        <Table
          size='small' pagination={{ pageSize: 10 }} rowKey={(r) => `${r.day}-${r.provider}-${r.task}`} dataSource={usage.data} loading={usage.isLoading}
          columns={[
            { title: t('board.day'), dataIndex: 'day', render: (v: string) => format.date(v) },
            { title: t('board.provider'), dataIndex: 'provider' },
            { title: t('board.task'), dataIndex: 'task', render: (task: string) => t(`board.tasks.${task}`, { defaultValue: task }) },
            { title: t('board.requests'), dataIndex: 'calls' },
            { title: t('board.failures'), dataIndex: 'failures' },
            { title: t('board.tokens'), dataIndex: 'total_tokens', render: (v: number) => format.number(v) },
            { title: t('board.latency'), dataIndex: 'avg_latency_ms', render: (v: number) => `${format.number(v)} ms` },
          ]}
        />
      )}
    </Card>
  )
}
