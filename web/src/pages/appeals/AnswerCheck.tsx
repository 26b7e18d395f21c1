import { Alert, List, Space, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

const VERDICT_COLORS: Record<string, string> = { complete: 'green', partial: 'orange', inadequate: 'red' }

/** the LLM's review of an official reply: does it answer every point, cite the law, explain the right to appeal */
export function AnswerCheckView ({ result }: { result: Record<string, unknown> }) {
  const { t } = useTranslation()
  const points = Array.isArray(result.points) ? result.points as { point: string, answered: boolean, evidence?: string }[] : []
  const missing = Array.isArray(result.missing) ? result.missing as string[] : []
  const verdict = String(result.verdict ?? '')
  return (
    <Space direction='vertical' size='small' style={{ width: '100%' }} data-testid='answer-check'>
      <Space wrap>
        <Tag color={VERDICT_COLORS[verdict]}>{t(`check.verdicts.${verdict}`, { defaultValue: verdict })}</Tag>
        {result.cites_legal_basis === true && <Tag>{t('check.legalBasis')}</Tag>}
        {result.explains_right_to_appeal === true && <Tag>{t('check.rightToAppeal')}</Tag>}
        {result.same_language === false && <Tag color='orange'>{t('check.otherLanguage')}</Tag>}
      </Space>
      {typeof result.summary === 'string' && <Typography.Paragraph style={{ margin: 0 }}>{result.summary}</Typography.Paragraph>}
      {points.length > 0 && (
        <List
          size='small' dataSource={points} renderItem={(p) => (
            <List.Item>
              <Tag color={p.answered ? 'green' : 'red'}>{t(p.answered ? 'check.answered' : 'check.notAnswered')}</Tag> {p.point}
              {p.evidence && <Typography.Text type='secondary'> — «{p.evidence}»</Typography.Text>}
            </List.Item>
          )}
        />
      )}
      {missing.length > 0 && <Alert type='warning' message={t('check.missing')} description={<ul style={{ margin: 0 }}>{missing.map((m, i) => <li key={i}>{m}</li>)}</ul>} />}
    </Space>
  )
}
