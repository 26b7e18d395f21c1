import { useQuery } from '@tanstack/react-query'
import { Button, Checkbox, Input, Popconfirm, Space, Switch, Table } from 'antd'
import { useDeferredValue, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { createPerson, personListQuery, removePerson, setPersonActive, updatePerson } from '../../api/references'
import { CitizenFields, citizenBody } from '../../forms/CitizenFields'
import { FormModal, LoadError, PageTitle, useAction, useFormSave } from './kit'
import { CallButton } from '../calls/CallButton'

type Person = Schemas['PersonResponse']
const KEY = keys.admin.persons.all
const LIMIT = 100

/** citizens: search by name, IIN, phone or e-mail; create with the IIN check, edit, deactivate, delete */
export function Persons () {
  const { t } = useTranslation()
  const [search, setSearch] = useState('')
  const [withInactive, setWithInactive] = useState(false)
  const q = useDeferredValue(search.trim())
  const [editing, setEditing] = useState<Person | 'new'>()
  const persons = useQuery({
    ...personListQuery(q, withInactive, LIMIT),
    placeholderData: (previous) => previous,
  })
  const toggle = useAction(KEY, (p: Person) => setPersonActive(p.id, !p.is_active))
  const remove = useAction(KEY, (p: Person) => removePerson(p.id), (r) => r.message)
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.persons')}</PageTitle>
      <Space wrap>
        <Input.Search allowClear placeholder={t('persons.search')} aria-label={t('persons.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 360 }} />
        <Button type='primary' onClick={() => setEditing('new')}>{t('persons.add')}</Button>
        <Checkbox checked={withInactive} onChange={(e) => setWithInactive(e.target.checked)}>{t('adminKit.showInactive')}</Checkbox>
      </Space>
      <LoadError query={persons} />
      <Table<Person>
        rowKey='id' size='small' loading={persons.isFetching} dataSource={persons.data} pagination={false}
        locale={{ emptyText: t(q ? 'persons.nothingFound' : 'persons.empty') }} rowClassName={(p) => (p.is_active ? '' : 'row-inactive')}
        footer={persons.data?.length === LIMIT ? () => t('persons.refine', { count: LIMIT }) : undefined}
        columns={[
          { title: t('profile.fullName'), dataIndex: 'full_name', render: (name: string, p) => <a onClick={() => setEditing(p)}>{name}</a> },
          { title: t('desk.form.iin'), dataIndex: 'iin', render: (v: string | null) => v ?? '—' },
          { title: t('desk.form.phone'), dataIndex: 'phone', render: (v: string | null, p) => (v ? <Space wrap>{v}{p.is_active && <CallButton number={v} />}</Space> : '—') },
          { title: t('desk.form.email'), dataIndex: 'email', render: (v: string | null) => v ?? '—' },
          { title: t('adminKit.active'), dataIndex: 'is_active', width: 100, render: (active: boolean, p) => <Switch checked={active} onChange={() => toggle.mutate(p)} aria-label={`${t('adminKit.active')}: ${p.full_name}`} /> },
          {
            title: '', key: 'delete', width: 110, render: (_, p) => (
              <Popconfirm title={t('adminKit.deleteConfirm', { name: p.full_name })} onConfirm={() => remove.mutate(p)} okText={t('common.yes')} cancelText={t('common.no')}>
                <Button size='small' danger>{t('terminals.delete')}</Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      {editing && <PersonForm person={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function PersonForm ({ person, onClose }: { person?: Person, onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(KEY, (values: Parameters<typeof citizenBody>[0]) => {
    const body = citizenBody(values)
    return person ? updatePerson(person.id, body) : createPerson(body)
  }, onClose)
  return (
    <FormModal
      title={person ? person.full_name : t('persons.add')} state={state} onClose={onClose} width={720}
      initialValues={person ? { full_name: person.full_name, iin: person.iin ?? undefined, phone: person.phone ?? undefined, email: person.email ?? undefined } : undefined}
    >
      <CitizenFields nameRequired />
    </FormModal>
  )
}
