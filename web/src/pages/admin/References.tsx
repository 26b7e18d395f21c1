import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Popconfirm, Space, Switch, Table, Tabs } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { editableListQuery, editableLists as lists, saveKazakhNameIfChanged } from '../../api/references'
import { keyOnceNamed, useKazakhNames } from '../../references/references'
import { FormModal, KazakhNameItem, LoadError, PageTitle, useAction, useFormSave } from './kit'

type Item = Schemas['ItemResponse']
type Kind = 'sources' | 'response-methods'
// the console's own lists of the same items (the desk's selects) are read again after a change
const KEY = keys.references.all

/** the calls of the two seeded lists: they have no create route, only rename, (de)activate and delete */
/** sources of appeals and response methods: rename (in Russian and Kazakh), activate/deactivate, delete while unused */
export function References () {
  const { t } = useTranslation()
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.references')}</PageTitle>
      <Tabs items={(['sources', 'response-methods'] as const).map((kind) => ({ key: kind, label: t(`references.${kind}`), children: <ItemList kind={kind} /> }))} />
    </Space>
  )
}

function ItemList ({ kind }: { kind: Kind }) {
  const { t } = useTranslation()
  const items = useQuery(editableListQuery(kind))
  const kazakhNamesQuery = useKazakhNames(kind)
  const kazakhNames = kazakhNamesQuery.data ?? new Map<number, string>()
  const [editing, setEditing] = useState<Item>()
  const toggle = useAction(KEY, (item: Item) => lists[kind].update(item.id, { is_active: !item.is_active }))
  const remove = useAction(KEY, (item: Item) => lists[kind].remove(item.id), (r) => r.message)
  return (
    <>
      <LoadError query={items} />
      <Table<Item>
        rowKey='id' size='small' loading={items.isLoading} dataSource={items.data} pagination={false} locale={{ emptyText: t('references.empty') }}
        rowClassName={(i) => (i.is_active ? '' : 'row-inactive')}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          { title: t('common.nameRu'), dataIndex: 'name' },
          { title: t('common.nameKk'), key: 'name_kk', render: (_, item) => kazakhNames.get(item.id) ?? '—' },
          { title: t('adminKit.active'), dataIndex: 'is_active', width: 110, render: (active: boolean, item) => <Switch checked={active} loading={toggle.isPending && toggle.variables?.id === item.id} onChange={() => toggle.mutate(item)} aria-label={`${t('adminKit.active')}: ${item.name}`} /> },
          {
            title: '', key: 'actions', width: 220, render: (_, item) => (
              <Space>
                <Button size='small' onClick={() => setEditing(item)}>{t('references.rename')}</Button>
                <Popconfirm title={t('adminKit.deleteConfirm', { name: item.name })} onConfirm={() => remove.mutate(item)} okText={t('common.yes')} cancelText={t('common.no')}>
                  <Button size='small' danger>{t('terminals.delete')}</Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && <Rename key={keyOnceNamed(editing.id, kazakhNamesQuery.data)} kind={kind} item={{ ...editing, name_kk: kazakhNames.get(editing.id) ?? null }} onClose={() => setEditing(undefined)} />}
    </>
  )
}

type Names = { name: string, name_kk: string | null }

/** both names; each is sent only when it changed (the Kazakh one is the console's, a call of its own) */
function Rename ({ kind, item, onClose }: { kind: Kind, item: Item & Names, onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(KEY, async (values: Names) => {
    if (values.name !== item.name) await lists[kind].update(item.id, { name: values.name })
    await saveKazakhNameIfChanged(kind, item.id, values.name_kk, item.name_kk)
  }, onClose)
  return (
    <FormModal title={item.name} state={state} onClose={onClose} initialValues={item}>
      <Form.Item name='name' label={t('common.nameRu')} rules={[{ required: true, message: t('common.required') }, { max: 255 }]}><Input autoFocus /></Form.Item>
      <KazakhNameItem />
    </FormModal>
  )
}
