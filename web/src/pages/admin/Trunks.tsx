import { useQuery } from '@tanstack/react-query'
import { Button, Card, Col, Form, Input, Radio, Row, Select, Space, Table, Tag, Tooltip, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { removeTrunk, saveTrunk, trunksQuery, trunksStatusQuery, type Trunk } from '../../api/trunks'
import { FormModal, LoadError, RowActions, useAction, useFormSave } from './kit'
import { WholeNumberItem } from '../../forms/WholeNumberItem'

type Values = Schemas['TrunkCreate'] & { match_text?: string }

const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/
const ADDRESS = /^[0-9]{1,3}(\.[0-9]{1,3}){3}(\/[0-9]{1,2})?$|^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/
const REGISTRATION_COLORS: Record<string, string> = { Registered: 'green', Rejected: 'red', Unregistered: 'orange' }

/** the providers' trunks: how each is reached, its registration in Asterisk, the routes through it */
export function Trunks () {
  const { t } = useTranslation()
  const trunks = useQuery(trunksQuery)
  const status = useQuery(trunksStatusQuery)
  const states = new Map(status.data?.trunks.map((s) => [s.id, s]) ?? [])
  const [editing, setEditing] = useState<Trunk | 'new'>()
  const remove = useAction(keys.admin.pbx.all, (trunk: Trunk) => removeTrunk(trunk.id))
  const registration = (trunk: Trunk) => {
    const state = states.get(trunk.id)
    if (trunk.mode === 'ip') return <Typography.Text type='secondary'>{t('trunks.byAddress')}</Typography.Text>
    if (!state?.registration) return <Tag>{t('trunks.unknown')}</Tag>
    return <Tag color={REGISTRATION_COLORS[state.registration] ?? 'orange'}>{t(`trunks.registrations.${state.registration}`, { defaultValue: state.registration })}</Tag>
  }
  return (
    <Card size='small' title={t('trunks.title')} extra={<Button type='primary' onClick={() => setEditing('new')}>{t('trunks.add')}</Button>} data-testid='trunks'>
      <Space direction='vertical' style={{ width: '100%' }}>
        <Typography.Text type='secondary'>{t('trunks.hint')}</Typography.Text>
        <LoadError query={trunks} />
        <Table<Trunk>
          rowKey='id' size='small' loading={trunks.isLoading} dataSource={trunks.data} pagination={false} scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('trunks.empty') }}
          columns={[
            { title: t('trunks.name'), dataIndex: 'name', render: (name: string, trunk) => <>{name} <Typography.Text type='secondary'>{trunk.asterisk_name}</Typography.Text></> },
            { title: t('trunks.server'), key: 'server', render: (_, trunk) => `${trunk.host}:${trunk.port}${trunk.transport === 'transport-tcp' ? ' TCP' : ''}` },
            { title: t('trunks.registration'), key: 'registration', render: (_, trunk) => registration(trunk) },
            { title: t('trunks.usedBy'), key: 'used', render: (_, trunk) => trunk.used_by.map((u) => `${u.route_name} (${u.organization_name})`).join(', ') || '—' },
            {
              title: '', key: 'actions',
              render: (_, trunk) => trunk.used_by.length > 0
                ? (
                  <Space>
                    <Button size='small' onClick={() => setEditing(trunk)}>{t('terminals.edit')}</Button>
                    <Tooltip title={t('trunks.inUse', { routes: trunk.used_by.map((u) => `«${u.route_name}» (${u.organization_name})`).join(', ') })}>
                      <Button size='small' danger disabled>{t('terminals.delete')}</Button>
                    </Tooltip>
                  </Space>
                  )
                : <RowActions name={trunk.name} onEdit={() => setEditing(trunk)} onDelete={() => remove.mutate(trunk)} />,
            },
          ]}
        />
      </Space>
      {editing && <TrunkForm trunk={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
    </Card>
  )
}

function TrunkForm ({ trunk, onClose }: { trunk?: Trunk, onClose: () => void }) {
  const { t } = useTranslation()
  const state = useFormSave(keys.admin.pbx.all, ({ match_text: matchText, password, ...v }: Values) => saveTrunk(trunk?.id, {
    ...v,
    match: (matchText ?? '').split(/[\s,]+/).filter(Boolean),
    ...(password ? { password } : {}),
    ...(v.mode === 'ip' ? { username: null, realm: null } : { realm: v.realm || null }),
    caller_id: v.caller_id || null,
  }), onClose)
  const mode = Form.useWatch('mode', state.form) ?? trunk?.mode ?? 'registration'
  const required = { required: true, message: t('common.required') }
  const initial: Partial<Values> = trunk
    ? { ...trunk, match_text: trunk.match.join(', '), realm: trunk.realm ?? undefined }
    : { mode: 'registration', port: 5060, transport: 'transport-udp', codecs: 'alaw,ulaw', context: 'appeals-inbound', number_format: 'e164' }
  return (
    <FormModal title={trunk ? trunk.name : t('trunks.add')} state={state} onClose={onClose} width={720} initialValues={initial}>
      <Row gutter={12}>
        <Col xs={24}>
          <Form.Item name='mode' label={t('trunks.mode')}>
            <Radio.Group optionType='button' buttonStyle='solid' options={[{ value: 'registration', label: t('trunks.modes.registration') }, { value: 'ip', label: t('trunks.modes.ip') }]} />
          </Form.Item>
        </Col>
        <Col xs={24}><Form.Item name='name' label={t('trunks.name')} rules={[required, { max: 100 }]}><Input /></Form.Item></Col>
        <Col xs={24} md={12}><Form.Item name='host' label={t('trunks.host')} rules={[required, { pattern: HOST, message: t('trunks.badHost') }]}><Input placeholder='sip.provider.kz' /></Form.Item></Col>
        <Col xs={12} md={6}><WholeNumberItem name='port' label={t('trunks.port')} min={1} max={65535} /></Col>
        <Col xs={12} md={6}>
          <Form.Item name='transport' label={t('trunks.transport')}>
            <Select options={[{ value: 'transport-udp', label: 'UDP' }, { value: 'transport-tcp', label: 'TCP' }]} />
          </Form.Item>
        </Col>
        {mode === 'registration' && (
          <>
            <Col xs={24} md={8}><Form.Item name='username' label={t('trunks.username')} rules={[required, { pattern: /^[A-Za-z0-9_.+-]{1,64}$/, message: t('trunks.badUsername') }]}><Input autoComplete='off' /></Form.Item></Col>
            <Col xs={24} md={8}>
              <Form.Item name='password' label={t('trunks.password')} extra={trunk?.has_password ? t('trunks.passwordKept') : undefined} rules={trunk?.has_password ? [] : [required]}>
                <Input.Password autoComplete='new-password' />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}><Form.Item name='realm' label={t('trunks.realm')} extra={t('trunks.realmHint')}><Input /></Form.Item></Col>
          </>
        )}
        <Col xs={24}>
          <Form.Item
            name='match_text' label={t('trunks.match')} extra={t(mode === 'ip' ? 'trunks.matchHintIp' : 'trunks.matchHint')}
            rules={[{ validator: async (_, text?: string) => { if ((text ?? '').split(/[\s,]+/).filter(Boolean).some((a) => !ADDRESS.test(a))) throw new Error(t('trunks.badAddress')) } }]}
          >
            <Input placeholder='10.0.0.1, 10.0.1.0/24' />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name='number_format' label={t('trunks.numberFormat')}>
            <Select options={(['e164', 'national', 'digits'] as const).map((f) => ({ value: f, label: t(`trunks.formats.${f}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}><Form.Item name='caller_id' label={t('trunks.callerId')} extra={t('trunks.callerIdHint')} rules={[{ pattern: /^\+?[0-9]{3,15}$/, message: t('trunks.badNumber') }]}><Input /></Form.Item></Col>
        <Col xs={24} md={8}><Form.Item name='codecs' label={t('trunks.codecs')} rules={[{ pattern: /^[a-z0-9_]+(,[a-z0-9_]+)*$/, message: t('trunks.badCodecs') }]}><Input /></Form.Item></Col>
      </Row>
    </FormModal>
  )
}
