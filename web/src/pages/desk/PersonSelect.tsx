import { useQuery } from '@tanstack/react-query'
import { Select } from 'antd'
import { useDeferredValue, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { personSearchQuery } from '../../api/references'

/** a citizen found by IIN, name or phone (the service's persons search) */
export function PersonSelect ({ value, onChange, id, known }: { value?: number, onChange?: (id: number | undefined) => void, id?: string, known?: { value: number, label: string } }) {
  const { t } = useTranslation()
  const [search, setSearch] = useState('')
  const q = useDeferredValue(search.trim())
  const found = useQuery(personSearchQuery(q))
  const options = (found.data ?? []).map((p) => ({ value: p.id, label: [p.full_name, p.iin, p.phone].filter(Boolean).join(' · ') }))
  if (known && !options.some((o) => o.value === known.value)) options.unshift(known)
  return (
    <Select
      id={id} value={value} onChange={(v) => onChange?.(v)} allowClear showSearch filterOption={false} onSearch={setSearch}
      options={options} loading={found.isFetching} placeholder={t('desk.form.personSearch')}
      notFoundContent={q.length < 2 ? t('desk.form.typeToSearch') : t('desk.form.noPerson')}
    />
  )
}
