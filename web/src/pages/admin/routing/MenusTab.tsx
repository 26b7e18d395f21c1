import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Select, Space, Table, Tag } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { keys } from '../../../api/keys'
import { menusQuery, removeMenu, saveMenu, type Destination, type Menu } from '../../../api/routing'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from '../kit'
import { useRoutingChoices } from './choices'
import { cleanDestination, DestinationField, useDestinationText } from './Destination'
import { WholeNumberItem } from '../../../forms/WholeNumberItem'

interface Values {
  name: string
  prompt_id?: number | null
  timeout: number
  attempts: number
  options?: { digit: string, language?: 'kk' | 'ru' | null, destination: Destination }[]
  timeout_destination: Destination
  invalid_destination: Destination
}

/** voice menus: a prompt, digits to destinations; a digit may set the call's language */
export function MenusTab ({ tenant }: { tenant: number }) {
  const { t } = useTranslation()
  const menus = useQuery(menusQuery(tenant))
  const choices = useRoutingChoices(tenant)
  const destination = useDestinationText(choices)
  const [editing, setEditing] = useState<Menu | 'new'>()
  const remove = useAction(keys.admin.routing.all, (m: Menu) => removeMenu(tenant, m.id))
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Button type='primary' onClick={() => setEditing('new')}>{t('routing.menus.add')}</Button>
      <LoadError query={menus} />
      <Table<Menu>
        rowKey='id' size='small' loading={menus.isLoading} dataSource={menus.data} pagination={false} locale={{ emptyText: t('routing.menus.empty') }}
        columns={[
          { title: t('routing.name'), dataIndex: 'name' },
          { title: t('routing.menus.prompt'), dataIndex: 'prompt_id', render: (id: number | null) => choices.prompts.find((p) => p.id === id)?.name ?? '—' },
          {
            title: t('routing.menus.options'), key: 'options', render: (_, m) => m.options.map((o) => (
              <div key={o.digit}><Tag>{o.digit}</Tag>{o.language && <Tag color='blue'>{t(`routing.languages.${o.language}`)}</Tag>} {destination(o.destination)}</div>
            )),
          },
          {
            title: '', key: 'actions', render: (_, m) => <RowActions name={m.name} onEdit={() => setEditing(m)} onDelete={() => remove.mutate(m)} />,
          },
        ]}
      />
      {editing && <MenuForm tenant={tenant} menu={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Space>
  )
}

function MenuForm ({ tenant, menu, onClose }: { tenant: number, menu?: Menu, onClose: () => void }) {
  const { t } = useTranslation()
  const choices = useRoutingChoices(tenant)
  const state = useFormSave(keys.admin.routing.all, (v: Values) => saveMenu(tenant, menu?.id, {
    name: v.name, prompt_id: v.prompt_id ?? null, timeout: v.timeout, attempts: v.attempts,
    options: (v.options ?? []).map((o) => ({ digit: o.digit, language: o.language ?? null, destination: cleanDestination(o.destination) })),
    timeout_destination: cleanDestination(v.timeout_destination), invalid_destination: cleanDestination(v.invalid_destination),
  }), onClose)
  const required = { required: true, message: t('common.required') }
  // a new menu's caller who presses nothing or a wrong digit hears it again, then reaches the organization's queue, not the end of the call
  const ownQueue = choices.queues.find((q) => q.is_default)
  const fallback: Destination = ownQueue ? { kind: 'queue', queue_id: ownQueue.id } : { kind: 'hangup' }
  const initial = menu ?? { timeout: 5, attempts: 2, options: [], timeout_destination: fallback, invalid_destination: fallback }
  return (
    <FormModal title={menu ? menu.name : t('routing.menus.add')} state={state} onClose={onClose} width={760} initialValues={initial as Partial<Values>}>
      <Form.Item name='name' label={t('routing.name')} rules={[required, { max: 100 }]}><Input /></Form.Item>
      <Form.Item name='prompt_id' label={t('routing.menus.prompt')}><Select allowClear options={choices.prompts.map((p) => ({ value: p.id, label: p.name }))} /></Form.Item>
      <Space>
        <WholeNumberItem name='timeout' label={t('routing.menus.timeout')} min={1} max={60} unit={t('terminals.seconds')} required />
        <WholeNumberItem name='attempts' label={t('routing.menus.attempts')} min={1} max={5} required />
      </Space>
      <Form.List name='options'>
        {(fields, { add, remove }) => (
          <>
            {fields.map((field) => (
              <Space key={field.key} align='start' wrap>
                <Form.Item name={[field.name, 'digit']} label={t('routing.menus.digit')} rules={[required, { pattern: /^[0-9*#]$/, message: t('routing.menus.badDigit') }]}><Input style={{ width: 60 }} maxLength={1} /></Form.Item>
                <Form.Item name={[field.name, 'language']} label={t('routing.menus.language')}>
                  <Select allowClear style={{ width: 140 }} options={(['kk', 'ru'] as const).map((l) => ({ value: l, label: t(`routing.languages.${l}`) }))} />
                </Form.Item>
                <div style={{ minWidth: 360 }}><DestinationField name={[field.name, 'destination']} list={['options']} label={t('routing.menus.goesTo')} choices={choices} /></div>
                <Button type='text' icon={<MinusCircleOutlined />} onClick={() => remove(field.name)} aria-label={t('routing.menus.removeOption')} style={{ marginTop: 30 }} />
              </Space>
            ))}
            <Button type='dashed' icon={<PlusOutlined />} onClick={() => add({ destination: { kind: 'hangup' } })} style={{ marginBottom: 16 }}>{t('routing.menus.addOption')}</Button>
          </>
        )}
      </Form.List>
      <DestinationField name='timeout_destination' label={t('routing.menus.timeoutDestination')} choices={choices} />
      <DestinationField name='invalid_destination' label={t('routing.menus.invalidDestination')} choices={choices} />
    </FormModal>
  )
}
