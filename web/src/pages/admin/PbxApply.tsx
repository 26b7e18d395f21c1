import { useQuery } from '@tanstack/react-query'
import { Alert, Card, Descriptions, Space, Table, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { organizationApplyQuery, pbxApplyQuery } from '../../api/telephony'
import { useFormat } from '../../i18n/format'

// Whether the PBX runs what the service holds (issue 51): changes apply themselves within a second.

const COLORS: Record<string, string> = { applied: 'green', pending: 'blue', applying: 'blue', waiting_for_asterisk: 'orange', failed: 'red', refused: 'red', off: 'default' }

/** the state in words, with the time it was applied */
type ApplyState = Schemas['OrganizationApplyState']['state']

function StateTag ({ state, appliedAt, testId }: { state: ApplyState, appliedAt: string | null, testId: string }) {
  const { t } = useTranslation()
  const f = useFormat()
  return (
    <Tag color={COLORS[state]} data-testid={testId} data-state={state}>
      {state === 'applied' && appliedAt ? t('pbx.apply.appliedAt', { time: f.clock(appliedAt) }) : t(`pbx.apply.state.${state}`)}
    </Tag>
  )
}

/** the PBX page's card: the state, what waits, what failed, the organizations refused and why */
export function PbxApplyCard () {
  const { t } = useTranslation()
  const f = useFormat()
  const apply = useQuery(pbxApplyQuery)
  const a = apply.data
  return (
    <Card size='small' title={t('pbx.apply.title')} loading={apply.isLoading} data-testid='pbx-apply'>
      {a && (
        <>
          <Descriptions size='small' column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label={t('pbx.apply.stateLabel')}><StateTag state={a.state} appliedAt={a.applied_at} testId='pbx-apply-state' /></Descriptions.Item>
            {a.pending_reloads.length > 0 && <Descriptions.Item label={t('pbx.apply.pendingReloads')}>{a.pending_reloads.map((m) => t(`pbx.apply.module.${m as 'pjsip' | 'dialplan' | 'queues'}`)).join(', ')}</Descriptions.Item>}
          </Descriptions>
          {a.state === 'off' && <Alert type='info' showIcon message={t('pbx.apply.offHint')} />}
          {a.error && <Alert type='error' showIcon data-testid='pbx-apply-error' message={t('pbx.apply.error', { time: a.error_at ? f.clock(a.error_at) : '' })} description={a.error} />}
          {a.trunks_problem && <Alert type='warning' showIcon message={t('pbx.apply.trunksProblem')} description={a.trunks_problem} />}
          {a.asterisk_problem && <Alert type='warning' showIcon data-testid='pbx-apply-asterisk' message={t('pbx.apply.asteriskProblem')} description={a.asterisk_problem} />}
          {a.refused.length > 0 && (
            <Table<Schemas['PbxApplyState']['refused'][number]>
              rowKey={(r) => `${r.organization_id}-${r.refused_by}`} size='small' pagination={false} scroll={{ x: 'max-content' }} data-testid='pbx-apply-refused'
              title={() => t('pbx.apply.refusedTitle')} dataSource={a.refused}
              columns={[
                { title: t('pbx.apply.organization'), render: (_, r) => `${r.prefix} · ${r.name}` },
                { title: t('pbx.apply.by'), render: (_, r) => <Tag color={r.refused_by === 'asterisk' ? 'orange' : 'red'}>{t(r.refused_by === 'asterisk' ? 'pbx.apply.byAsterisk' : 'pbx.apply.byService')}</Tag> },
                { title: t('pbx.apply.problem'), dataIndex: 'problem' },
                { title: t('pbx.apply.since'), render: (_, r) => f.dateTime(r.since) },
              ]}
            />
          )}
        </>
      )}
    </Card>
  )
}

/** beside an organization's edited telephony: whether its last change runs on the PBX */
export function OrganizationApplyTag ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const state = useQuery(organizationApplyQuery(tenant))
  const s = state.data
  if (!s) return null
  const tag = <StateTag state={s.state} appliedAt={s.applied_at} testId='organization-apply-state' />
  const why = s.problem ?? (s.state === 'failed' || s.state === 'waiting_for_asterisk' ? s.error : null)
  return (
    <Space direction='vertical' size={4} style={{ width: '100%' }}>
      <span>{t('pbx.apply.onPbx')}: {tag}</span>
      {why && <Alert type={s.problem ? 'error' : 'warning'} showIcon data-testid='organization-apply-problem' message={t(s.refused_by === 'asterisk' ? 'pbx.apply.refusedByAsterisk' : s.problem ? 'pbx.apply.refusedOwn' : 'pbx.apply.notApplied')} description={why} />}
    </Space>
  )
}
