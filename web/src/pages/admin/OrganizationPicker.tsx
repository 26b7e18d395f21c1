import { useQuery } from '@tanstack/react-query'
import { Select } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { telephonyOrganizationsQuery } from '../../api/telephony'
import { useSession } from '../../session/session'

/** the organization a page works on: an admin picks any, a manager has their own */
export function useTenantOrganizations () {
  const { user } = useSession()
  return useQuery({ ...telephonyOrganizationsQuery, enabled: user?.role === 'admin' })
}

export function OrganizationPicker ({ value, onChange }: { value?: number, onChange: (id: number) => void }) {
  const { t } = useTranslation()
  const { user } = useSession()
  const organizations = useTenantOrganizations()
  const only = organizations.data?.length === 1 ? organizations.data[0]!.id : undefined
  // one organization to choose from: chosen, not asked for on every visit
  useEffect(() => { if (value === undefined && only !== undefined) onChange(only) }, [value, only, onChange])
  if (user?.role !== 'admin') return null
  return (
    <Select
      showSearch optionFilterProp='label' style={{ minWidth: 320 }} value={value} onChange={onChange} loading={organizations.isLoading}
      placeholder={t('admin.pickOrganization')} aria-label={t('admin.organization')}
      options={(organizations.data ?? []).map((o) => ({ value: o.id, label: `${o.org_prefix} · ${o.org_name}` }))}
    />
  )
}
