import { useQuery } from '@tanstack/react-query'
import { Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { load } from '../../api/load'
import { useSession } from '../../session/session'

/** the organization a page works on: an admin picks any, a manager has their own */
export function useTenantOrganizations () {
  const { user } = useSession()
  return useQuery({
    queryKey: ['admin', 'telephony-organizations'],
    queryFn: () => load(api.GET('/api/organizations/', { params: { query: { limit: 1000 } } })),
    enabled: user?.role === 'admin',
    staleTime: 60_000,
  })
}

export function OrganizationPicker ({ value, onChange }: { value?: number, onChange: (id: number) => void }) {
  const { t } = useTranslation()
  const { user } = useSession()
  const organizations = useTenantOrganizations()
  if (user?.role !== 'admin') return null
  return (
    <Select
      showSearch optionFilterProp='label' style={{ minWidth: 320 }} value={value} onChange={onChange} loading={organizations.isLoading}
      placeholder={t('admin.pickOrganization')} aria-label={t('admin.organization')}
      options={(organizations.data ?? []).map((o) => ({ value: o.id, label: `${o.org_prefix} · ${o.org_name}` }))}
    />
  )
}
