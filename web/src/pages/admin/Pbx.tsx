import { useMutation, useQuery } from '@tanstack/react-query'
import { Alert, Button, Card, Descriptions, List, Space, Spin, Tabs, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ApiProblem, Schemas } from '../../api/client'
import { generateConfigs, pbxPreviewQuery, pbxStatusQuery, reloadPbx } from '../../api/telephony'
import { messageOf, problemText } from '../../forms/problems'
import { useSession } from '../../session/session'
import { isAdmin } from '../../shell/access'
import { AsteriskConfig } from './AsteriskConfig'
import { BreakReasons } from './BreakReasons'
import { PbxApplyCard } from './PbxApply'
import { Trunks } from './Trunks'

const PREVIEWS = ['sip', 'queues', 'extensions'] as const
type Preview = typeof PREVIEWS[number]

/**
 * The whole PBX is the administrators' (the service refuses others 403 `administrators_only`): anyone
 * else who finds the page is told so, and the console asks the service nothing it would refuse.
 */
export function Pbx () {
  const { t } = useTranslation()
  const { user } = useSession()
  if (user && isAdmin(user)) return <PbxAdministration />
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('admin.pages.pbx')}</Typography.Title>
      <Alert type='warning' showIcon message={problemText(t, { status: 403, code: 'administrators_only', detail: undefined })} data-testid='pbx-refused' />
    </Space>
  )
}

/** Asterisk's status, the three generated files previewed, generation with its errors, reload */
function PbxAdministration () {
  const { t } = useTranslation()
  const [tab, setTab] = useState<Preview>('sip')
  const status = useQuery(pbxStatusQuery)
  const preview = useQuery(pbxPreviewQuery(tab))
  const generate = useMutation({ mutationFn: generateConfigs })
  const reload = useMutation({ mutationFn: reloadPbx })
  const s = status.data
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('admin.pages.pbx')}</Typography.Title>
      <Card size='small' title={t('pbx.status')} loading={status.isLoading} data-testid='pbx-status'>
        {s && (
          <Descriptions size='small' column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label={t('pbx.connection')}><Tag color={s.connected ? 'green' : 'orange'}>{s.connected ? t('pbx.connected') : t('pbx.disconnected')}</Tag> {s.message && messageOf(t, s.message)}</Descriptions.Item>
            <Descriptions.Item label={t('pbx.version')}>{s.asterisk_version ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('pbx.calls')}>{s.current_calls ?? '—'}</Descriptions.Item>
          </Descriptions>
        )}
        {status.isError && <Alert type='error' showIcon message={problemText(t, status.error as unknown as ApiProblem)} data-testid='pbx-status-error' />}
      </Card>
      <PbxApplyCard />
      <Trunks />
      <BreakReasons />
      <Space wrap>
        <Button type='primary' loading={generate.isPending} onClick={() => generate.mutate()}>{t('pbx.generate')}</Button>
        <Button loading={reload.isPending} onClick={() => reload.mutate()}>{t('pbx.reload')}</Button>
      </Space>
      {generate.data && (
        <Alert
          type={generate.data.success ? 'success' : 'error'} showIcon data-testid='pbx-generate'
          message={t(`pbx.generated.${generate.data.outcome}`, { count: generate.data.outcome === 'invalid' ? generate.data.errors.length : generate.data.files.length })}
          description={(
            <>
              {generate.data.files.length > 0 && <div>{t('pbx.files')}: {generate.data.files.join(', ')}</div>}
              {generate.data.backup_path && <div>{t('pbx.backup')}: {generate.data.backup_path}</div>}
              {generate.data.errors.length > 0 && <List size='small' dataSource={generate.data.errors} renderItem={(e) => <List.Item>{e}</List.Item>} />}
            </>
          )}
        />
      )}
      {generate.isError && <Alert type='error' showIcon message={problemText(t, generate.error as unknown as ApiProblem)} />}
      {reload.data && <ReloadResult result={reload.data} />}
      {reload.isError && <Alert type='error' showIcon message={problemText(t, reload.error as unknown as ApiProblem)} />}
      <Card size='small'>
        <Tabs
          activeKey={tab} onChange={(k) => setTab(k as Preview)}
          items={PREVIEWS.map((p) => ({
            key: p, label: t(`pbx.previews.${p}`),
            children: p !== tab
              ? null
              : (
                <>
                  {preview.isLoading && <Spin />}
                  {preview.isError && <Alert type='error' message={problemText(t, preview.error as unknown as ApiProblem)} />}
                  {preview.data && (
                    <>
                      <Typography.Text type='secondary'>{t('pbx.lines', { count: preview.data.lines_count })}</Typography.Text>
                      <AsteriskConfig content={preview.data.content} label={t(`pbx.previews.${p}`)} />
                    </>
                  )}
                </>
                ),
          }))}
        />
      </Card>
    </Space>
  )
}

/** a reload said in the console's words; what Asterisk answered (or why it could not be asked) below, as it came */
function ReloadResult ({ result }: { result: Schemas['ReloadResult'] }) {
  const { t } = useTranslation()
  const said = [result.output, result.outcome === 'reload_failed' ? result.message : ''].filter(Boolean).join('\n')
  return (
    <Alert
      type={result.success ? 'success' : 'error'} showIcon data-testid='pbx-reload' message={t(`pbx.reloaded.${result.outcome}`)}
      description={said ? <pre style={{ margin: 0 }}>{said}</pre> : undefined}
    />
  )
}
