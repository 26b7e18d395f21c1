import { Form, Select, Space } from 'antd'
import type { NamePath } from 'antd/es/form/interface'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../../api/client'
import type { Destination as DestinationValue } from '../../../api/routing'
import { useQueueName, type RoutingChoices } from './choices'

const KINDS = ['queue', 'terminal', 'menu', 'announcement', 'hangup'] as const
const ID_OF = { queue: 'queue_id', terminal: 'terminal_id', menu: 'menu_id', announcement: 'prompt_id', hangup: undefined } as const

/** a destination as the service takes it: its kind and only the id that kind names */
export function cleanDestination (d: Partial<DestinationValue> | undefined): DestinationValue {
  const kind = d?.kind ?? 'hangup'
  const id = ID_OF[kind]
  return id ? { kind, [id]: d?.[id] } as DestinationValue : { kind }
}

/** where a call goes: a kind, then the queue, terminal, menu or prompt of this organization (`list`: the name of the Form.List it is in) */
export function DestinationField ({ name, label, choices, list = [] }: { name: NamePath, label: string, choices: RoutingChoices, list?: (string | number)[] }) {
  const { t } = useTranslation()
  const path = ([] as (string | number)[]).concat(name as never)
  // inside a Form.List the fields' names are the list's, the watched path the form's: `list` is the list's own name
  const kind = Form.useWatch([...list, ...path, 'kind']) as DestinationValue['kind'] | undefined
  const queueName = useQueueName()
  const options: Record<Exclude<DestinationValue['kind'], 'hangup'>, { value: number | string, label: string }[]> = {
    queue: choices.queues.map((q) => ({ value: q.id, label: queueName(q) })),
    terminal: choices.terminals.map((e) => ({ value: e.id, label: `${e.id} · ${e.name}` })),
    menu: choices.menus.map((m) => ({ value: m.id, label: m.name })),
    announcement: choices.prompts.map((p) => ({ value: p.id, label: p.name })),
  }
  const id = kind ? ID_OF[kind] : undefined
  return (
    <Form.Item label={label} required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={[...path, 'kind']} noStyle initialValue='hangup'>
          <Select style={{ width: '40%' }} aria-label={`${label}: ${t('routing.kind')}`} options={KINDS.map((k) => ({ value: k, label: t(`routing.kinds.${k}`) }))} />
        </Form.Item>
        {id && kind && kind !== 'hangup' && (
          <Form.Item name={[...path, id]} noStyle rules={[{ required: true, message: t('common.required') }]}>
            <Select style={{ width: '60%' }} showSearch optionFilterProp='label' aria-label={`${label}: ${t(`routing.kinds.${kind}`)}`} options={options[kind]} />
          </Form.Item>
        )}
      </Space.Compact>
    </Form.Item>
  )
}

/** a destination in words, for a table */
export function useDestinationText (choices: RoutingChoices) {
  const { t } = useTranslation()
  const queueName = useQueueName()
  return (d: Schemas['DestinationView']) => {
    const names: Record<DestinationValue['kind'], string | null | undefined> = {
      queue: ((q) => q && queueName(q))(choices.queues.find((q) => q.id === d.queue_id)),
      terminal: d.terminal_id,
      menu: choices.menus.find((m) => m.id === d.menu_id)?.name,
      announcement: choices.prompts.find((p) => p.id === d.prompt_id)?.name,
      hangup: undefined,
    }
    const name = names[d.kind]
    return name ? `${t(`routing.kinds.${d.kind}`)}: ${name}` : t(`routing.kinds.${d.kind}`)
  }
}
