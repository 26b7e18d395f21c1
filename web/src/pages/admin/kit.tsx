import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons'
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query'
import { Alert, App, Button, Form, Input, Modal, Popconfirm, Space, Tag, Typography } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { useNavigate, useSearchParams } from 'react-router'
import type { ApiProblem } from '../../api/client'
import { keys } from '../../api/keys'
import { problemText } from '../../forms/problems'
import { useFormSubmit, type FormSubmit } from '../../forms/useFormSubmit'

// What every administration page is made of: a title, a list's error with a retry, an action's
// refusal said in words, and a form (in a modal or a panel) that shows the API's 422 on its fields.

export function PageTitle ({ children }: { children: ReactNode }) {
  return <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{children}</Typography.Title>
}

export function LoadError ({ query }: { query: { isError: boolean, refetch: () => unknown } }) {
  const { t } = useTranslation()
  if (!query.isError) return null
  return <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void query.refetch() }}>{t('common.retry')}</Button>} />
}

// the console's reference lists (the desk's and the filters' selects) follow every administration change
const refresh = (queries: ReturnType<typeof useQueryClient>, key: QueryKey) =>
  Promise.all([queries.invalidateQueries({ queryKey: key }), queries.invalidateQueries({ queryKey: keys.references.all })])

/**
 * An action without a form (activate, delete, reorder): the lists under `invalidates` are read
 * again after it, a refusal is said in a message.
 */
export function useAction<V, R = unknown> (invalidates: QueryKey, run: (variables: V) => Promise<R>, done?: (result: R) => string | undefined) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const queries = useQueryClient()
  const openRouting = useRoutingTab()
  return useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      const said = done?.(result)
      if (said) void message.success(said)
      void refresh(queries, invalidates)
    },
    onError: (problem: ApiProblem) => { void message.error(problem.usedBy ? <UsedBy users={problem.usedBy} open={openRouting} t={t} /> : problemText(t, problem)) },
  })
}

const TAB_OF = { line: 'lines', menu: 'menus', queue: 'queues' } as const
type UsedByKind = keyof typeof TAB_OF

/** a tab of the routing page of the organization on screen: its address, and going there (the message it is said in lies outside the router) */
function useRoutingTab () {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const to = (kind: UsedByKind) => `/admin/routing?${new URLSearchParams({ ...Object.fromEntries(params), tab: TAB_OF[kind] }).toString()}`
  return { to, go: (kind: UsedByKind) => { void navigate(to(kind)) } }
}

/** a deletion refused while something uses the item: what uses it, each a link to its tab of the routing page */
function UsedBy ({ users, open, t }: { users: NonNullable<ApiProblem['usedBy']>, open: ReturnType<typeof useRoutingTab>, t: TFunction }) {
  return (
    <span data-testid='used-by'>
      {t('adminKit.usedBy')}{' '}
      {users.map((u, i) => (
        <span key={`${u.kind}${u.id}`}>
          {i > 0 && ', '}{t(`adminKit.usedByKind.${u.kind}`)}{' '}
          <a href={`/console${open.to(u.kind)}`} onClick={(e) => { e.preventDefault(); open.go(u.kind) }}>«{u.name}»</a>
        </span>
      ))}
    </span>
  )
}

/** an administration form's sending (useFormSubmit): saved is said, the lists under `invalidates` and the references are read again */
export function useFormSave<T, R = unknown> (invalidates: QueryKey, save: (values: T) => Promise<R>, onSaved: (result: R) => void): FormSubmit<T> {
  const { t } = useTranslation()
  return useFormSubmit({ send: save, invalidates: [invalidates, keys.references.all], onDone: onSaved, saidOnDone: t('common.saved') })
}

interface FormModalProps<T> {
  title: string
  state: FormSubmit<T>
  initialValues?: Partial<T>
  onClose: () => void
  okText?: string
  width?: number
  children: ReactNode
}

/** a create or edit form in a modal; Enter in a field sends it */
export function FormModal<T> ({ title, state, initialValues, onClose, okText, width = 560, children }: FormModalProps<T>) {
  const { t } = useTranslation()
  return (
    <Modal open title={title} width={width} onCancel={onClose} onOk={() => state.form.submit()} okText={okText ?? t('common.save')} cancelText={t('common.cancel')} okButtonProps={{ loading: state.busy }} destroyOnHidden>
      {state.error && <Alert type='error' showIcon message={state.error} role='alert' style={{ marginBottom: 12 }} />}
      {/* named forms: their fields' ids do not collide with the page's own form beneath */}
      <Form name='dialog' form={state.form} layout='vertical' initialValues={initialValues} onFinish={state.handleSubmit}>
        {children}
        <button type='submit' hidden />
      </Form>
    </Modal>
  )
}

/** the same form in a page's panel, with its own save button */
/** an item's name in Kazakh beside its Russian one: optional, and left blank it is none (null) */
export function KazakhNameItem () {
  const { t } = useTranslation()
  return (
    <Form.Item name='name_kk' label={t('common.nameKk')} rules={[{ max: 255 }]} normalize={(v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v)}>
      <Input />
    </Form.Item>
  )
}

export function FormPanel<T> ({ state, initialValues, children, extra, name = 'panel' }: { state: FormSubmit<T>, initialValues?: Partial<T>, children: ReactNode, extra?: ReactNode, name?: string }) {
  const { t } = useTranslation()
  return (
    <Form name={name} form={state.form} layout='vertical' initialValues={initialValues} onFinish={state.handleSubmit}>
      {state.error && <Alert type='error' showIcon message={state.error} role='alert' style={{ marginBottom: 12 }} />}
      {children}
      <Space wrap>
        <Button type='primary' htmlType='submit' loading={state.busy}>{t('common.save')}</Button>
        {extra}
      </Space>
    </Form>
  )
}

/** a row's edit button and its delete, asked for again ("Delete <name>?"); no delete when the row may not go */
export function RowActions ({ name, onEdit, onDelete, editText }: { name: string, onEdit: () => void, onDelete?: () => void, editText?: string }) {
  const { t } = useTranslation()
  return (
    <Space>
      <Button size='small' onClick={onEdit}>{editText ?? t('terminals.edit')}</Button>
      {onDelete && (
        <Popconfirm title={t('adminKit.deleteConfirm', { name })} onConfirm={onDelete} okText={t('common.yes')} cancelText={t('common.no')}>
          <Button size='small' danger>{t('terminals.delete')}</Button>
        </Popconfirm>
      )}
    </Space>
  )
}

/** move an item one place up or down among its siblings: the keyboard's way to reorder */
export function MoveButtons ({ onMove, first, last, busy }: { onMove: (step: -1 | 1) => void, first: boolean, last: boolean, busy?: boolean }) {
  const { t } = useTranslation()
  return (
    <Space.Compact>
      <Button icon={<ArrowUpOutlined />} disabled={first} loading={busy} onClick={() => onMove(-1)} aria-label={t('adminKit.moveUp')} title={t('adminKit.moveUp')} />
      <Button icon={<ArrowDownOutlined />} disabled={last} loading={busy} onClick={() => onMove(1)} aria-label={t('adminKit.moveDown')} title={t('adminKit.moveDown')} />
    </Space.Compact>
  )
}

/** the ids of siblings after moving `id` by `step` (or dropping it at `to`) */
export function moved<T extends { id: number }> (siblings: T[], id: number, to: number): number[] {
  const ids = siblings.map((s) => s.id).filter((x) => x !== id)
  ids.splice(Math.max(0, Math.min(to, ids.length)), 0, id)
  return ids
}

/** a node of an editable tree: its name, what the page adds beside it, and a mark when it is off */
export function TreeTitle ({ name, active, children }: { name: string, active: boolean, children?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <span className={active ? undefined : 'row-inactive'}>
      {name}
      {children}
      {!active && <Tag style={{ marginInlineStart: 8 }}>{t('adminKit.inactive')}</Tag>}
    </span>
  )
}
