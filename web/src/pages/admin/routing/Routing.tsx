import { Empty, Space, Tabs } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { useSession } from '../../../session/session'
import { PageTitle } from '../kit'
import { OrganizationPicker } from '../OrganizationPicker'
import { OrganizationApplyTag } from '../PbxApply'
import { LinesTab } from './LinesTab'
import { MenusTab } from './MenusTab'
import { OutboundRoutesTab } from './OutboundRoutesTab'
import { PromptsTab } from './PromptsTab'
import { QueuesTab } from './QueuesTab'
import { SchedulesTab } from './SchedulesTab'

/** how a citizen's call goes through an organization: its lines, schedules, menus, queues and recorded prompts */
export function Routing () {
  const { t } = useTranslation()
  const { user } = useSession()
  const [params, setParams] = useSearchParams()
  const tenant = Number(params.get('organization')) || user?.organization_id || undefined
  const tab = params.get('tab') ?? 'lines'
  const go = (next: Record<string, string>) => setParams({ ...Object.fromEntries(params), ...next })
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.routing')}</PageTitle>
      <OrganizationPicker value={tenant} onChange={(id) => go({ organization: String(id) })} />
      {tenant !== undefined && <OrganizationApplyTag tenant={tenant} />}
      {tenant === undefined
        ? <Empty description={t('admin.pickOrganization')} />
        : (
          <Tabs
            activeKey={tab} onChange={(key) => go({ tab: key })} destroyOnHidden
            items={[
              { key: 'lines', label: t('routing.tabs.lines'), children: <LinesTab tenant={tenant} /> },
              { key: 'menus', label: t('routing.tabs.menus'), children: <MenusTab tenant={tenant} /> },
              { key: 'queues', label: t('routing.tabs.queues'), children: <QueuesTab tenant={tenant} /> },
              { key: 'schedules', label: t('routing.tabs.schedules'), children: <SchedulesTab tenant={tenant} /> },
              { key: 'prompts', label: t('routing.tabs.prompts'), children: <PromptsTab tenant={tenant} /> },
              { key: 'outbound', label: t('routing.tabs.outbound'), children: <OutboundRoutesTab tenant={tenant} /> },
            ]}
          />
          )}
    </Space>
  )
}
