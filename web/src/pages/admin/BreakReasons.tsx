import { useQuery } from '@tanstack/react-query'
import { Button, Card, Form, Input, Space, Table, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { breakReasonsQuery, removeBreakReason, saveBreakReason, type BreakReason } from '../../api/agents'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { WholeNumberItem } from '../../forms/WholeNumberItem'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from './kit'

const CODE = /^[a-z0-9_-]{1,40}$/
/** what the operator's console closed is paused with: not the administrator's to list */
const RESERVED = 'offline'

/** the reasons an operator may go on a break for, each named in both languages with its longest */
export function BreakReasons () {
  const { t } = useTranslation()
  const reasons = useQuery(breakReasonsQuery)
  const [editing, setEditing] = useState<BreakReason | 'new'>()
  const remove = useAction(keys.agent.reasons, (r: BreakReason) => removeBreakReason(r.code))
  return (
    <Card size='small' title={t('breakReasons.title')} extra={<Button type='primary' onClick={() => setEditing('new')}>{t('breakReasons.add')}</Button>} data-testid='break-reasons'>
      <Space direction='vertical' style={{ width: '100%' }}>
        <Typography.Text type='secondary'>{t('breakReasons.hint')}</Typography.Text>
        <LoadError query={reasons} />
        <Table<BreakReason>
          rowKey='code' size='small' loading={reasons.isLoading} dataSource={reasons.data} pagination={false}
          columns={[
            { title: t('breakReasons.nameRu'), dataIndex: 'name_ru' },
            { title: t('breakReasons.nameKk'), dataIndex: 'name_kk' },
            { title: t('breakReasons.max'), dataIndex: 'max_minutes', render: (v: number | null) => (v === null ? t('breakReasons.noLimit') : t('breakReasons.minutes', { n: v })) },
            { title: t('breakReasons.code'), dataIndex: 'code', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
            { title: '', key: 'actions', render: (_, r) => <RowActions name={r.name_ru} onEdit={() => setEditing(r)} onDelete={r.code === 'break' ? undefined : () => remove.mutate(r)} /> },
          ]}
        />
      </Space>
      {editing && <BreakReasonForm reason={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Card>
  )
}

function BreakReasonForm ({ reason, onClose }: { reason?: BreakReason, onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(keys.agent.reasons, (v: Schemas['BreakReasonCreate']) => saveBreakReason(reason?.code, { ...v, max_minutes: v.max_minutes ?? null }), onClose)
  const required = { required: true, message: t('common.required') }
  return (
    <FormModal title={reason ? reason.name_ru : t('breakReasons.add')} state={state} onClose={onClose} initialValues={reason ?? { sort_order: 0 }}>
      <Form.Item name='name_ru' label={t('breakReasons.nameRu')} rules={[required, { max: 60 }]}><Input /></Form.Item>
      <Form.Item name='name_kk' label={t('breakReasons.nameKk')} rules={[required, { max: 60 }]}><Input /></Form.Item>
      <WholeNumberItem name='max_minutes' label={t('breakReasons.max')} min={1} max={480} unit={t('breakReasons.min')} />
      <Typography.Paragraph type='secondary' style={{ marginTop: -16 }}>{t('breakReasons.maxHint')}</Typography.Paragraph>
      <WholeNumberItem name='sort_order' label={t('breakReasons.order')} min={0} max={1000} />
      {!reason && (
        <Form.Item name='code' label={t('breakReasons.code')} extra={t('breakReasons.codeHint')} rules={[required, { pattern: CODE, message: t('breakReasons.codeHint') }, { validator: async (_, v) => { if (v === RESERVED) throw new Error(t('breakReasons.reserved')) } }]}>
          <Input style={{ width: 200 }} />
        </Form.Item>
      )}
    </FormModal>
  )
}
