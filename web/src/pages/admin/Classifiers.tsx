import { useQuery } from '@tanstack/react-query'
import { Button, Card, Col, Empty, Form, Input, Popconfirm, Row, Select, Space, Switch, Tag, Tree, Typography } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CHILD, NAMES, classifierCalls, editableTreeQuery, type Level, type Node, type Values } from '../../api/classifiers'
import { keys } from '../../api/keys'
import { saveKazakhNameIfChanged } from '../../api/references'
import { useBothNamed } from '../../references/references'
import { FormModal, FormPanel, KazakhNameItem, LoadError, MoveButtons, PageTitle, TreeTitle, moved, useAction, useFormSave } from './kit'
import { WholeNumberItem } from '../../forms/WholeNumberItem'

const keyOf = (node: Node) => `${node.level}:${node.id}`
interface TreeItem { key: string, title: React.ReactNode, children: TreeItem[] }

const useEditableTree = () => useQuery(editableTreeQuery)

/** the classifiers as an editable tree, named in the console's language: appeal types, categories, subcategories with priority and deadlines */
export function Classifiers () {
  const { t } = useTranslation()
  const nodeName = useBothNamed()
  const tree = useEditableTree()
  const [selectedKey, setSelectedKey] = useState<string>()
  const [search, setSearch] = useState('')
  const [adding, setAdding] = useState<{ level: Level, parent?: Node }>()
  const index = useMemo(() => {
    const nodes = new Map<string, { node: Node, siblings: Node[], parent?: Node }>()
    const walk = (items: Node[], parent?: Node) => { for (const n of items) { nodes.set(keyOf(n), { node: n, siblings: items, parent }); walk(n.children, n) } }
    walk(tree.data ?? [])
    return nodes
  }, [tree.data])
  const selected = selectedKey ? index.get(selectedKey) : undefined
  const needle = search.trim().toLowerCase()
  const treeData = useMemo(() => {
    // a node that matches keeps its whole branch; one that does not stays only as the way to a match
    const convert = (items: Node[], all: boolean): TreeItem[] => items
      .map((n) => {
        const matches = all || !needle || [n.name, n.name_kk ?? ''].some((name) => name.toLowerCase().includes(needle))
        return { n, matches, children: convert(n.children, matches) }
      })
      .filter(({ matches, children }) => matches || children.length > 0)
      .map(({ n, children }) => ({ key: keyOf(n), title: <NodeTitle node={n} name={nodeName(n)} />, children }))
    return convert(tree.data ?? [], false)
  }, [tree.data, needle, nodeName])

  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.classifiers')}</PageTitle>
      <Space wrap>
        <Input.Search allowClear placeholder={t('classifiers.search')} aria-label={t('classifiers.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 320 }} />
        <Button type='primary' onClick={() => setAdding({ level: 'classifier' })}>{t('classifiers.add.classifier')}</Button>
      </Space>
      <LoadError query={tree} />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Card size='small' loading={tree.isLoading}>
            {treeData.length === 0
              ? <Empty description={t(needle ? 'classifiers.nothingFound' : 'classifiers.empty')} />
              : <Tree showLine blockNode treeData={treeData} selectedKeys={selectedKey ? [selectedKey] : []} onSelect={([key]) => setSelectedKey(key as string | undefined)} defaultExpandedKeys={treeData.map((n) => n.key)} {...(needle ? { expandedKeys: [...index.keys()] } : {})} />}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size='small' title={selected ? t(`classifiers.level.${selected.node.level}`) : undefined}>
            {selected
              ? <NodeEditor key={selectedKey} node={selected.node} siblings={selected.siblings} onAdd={(level) => setAdding({ level, parent: selected.node })} onRemoved={() => setSelectedKey(undefined)} />
              : <Empty description={t('classifiers.pick')} />}
          </Card>
        </Col>
      </Row>
      {adding && <NodeCreate level={adding.level} parent={adding.parent} onClose={() => setAdding(undefined)} onCreated={(key) => { setAdding(undefined); setSelectedKey(key) }} />}
    </Space>
  )
}

function NodeTitle ({ node, name }: { node: Node, name: string }) {
  return (
    <TreeTitle name={name} active={node.is_active}>
      {node.level === 'subcategory' && <Tag style={{ marginInlineStart: 8 }} color={node.priority === 1 ? 'red' : undefined}>P{node.priority}</Tag>}
    </TreeTitle>
  )
}

/** the fields a level has */
function NodeFields ({ level }: { level: Level }) {
  const { t } = useTranslation()
  const required = { required: true, message: t('common.required') }
  return (
    <>
      <Form.Item name='name' label={t('common.nameRu')} rules={[required, { max: 255 }]}><Input autoFocus /></Form.Item>
      <KazakhNameItem />
      {(level === 'classifier' || level === 'type') && <Form.Item name='code' label={t('classifiers.code')} rules={level === 'classifier' ? [required, { max: 50 }] : [{ max: 50 }]}><Input /></Form.Item>}
      {level === 'classifier' && <Form.Item name='description' label={t('classifiers.description')}><Input.TextArea rows={2} /></Form.Item>}
      {level === 'subcategory' && (
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name='priority' label={t('classifiers.priority')} rules={[required]}>
              <Select options={[1, 2, 3, 4, 5].map((p) => ({ value: p, label: t(`classifiers.priorities.${p}`) }))} />
            </Form.Item>
          </Col>
          <Col span={8}><WholeNumberItem name='time_to_work' label={t('classifiers.timeToWork')} min={1} max={100000} unit={t('classifiers.hours')} /></Col>
          <Col span={8}><WholeNumberItem name='time_to_close' label={t('classifiers.timeToClose')} min={1} max={100000} unit={t('classifiers.hours')} /></Col>
        </Row>
      )}
      <Form.Item name='is_active' label={t('adminKit.active')} valuePropName='checked'><Switch /></Form.Item>
    </>
  )
}

function NodeEditor ({ node, siblings, onAdd, onRemoved }: { node: Node, siblings: Node[], onAdd: (level: Level) => void, onRemoved: () => void }) {
  const { t } = useTranslation()
  const nodeName = useBothNamed()
  const state = useFormSave(keys.admin.classifiers.all, async ({ name_kk: nameKk, ...values }: Values) => {
    await classifierCalls.update(node.level, node.id, values)
    await saveKazakhNameIfChanged(NAMES[node.level], node.id, nameKk, node.name_kk)
  }, () => undefined)
  const remove = useAction(keys.admin.classifiers.all, () => classifierCalls.remove(node.level, node.id), (r) => { onRemoved(); return r.message })
  // the new order is written as each sibling's sort_order: only those that change are sent
  const move = useAction(keys.admin.classifiers.all, async (step: -1 | 1) => {
    const order = moved(siblings, node.id, siblings.findIndex((s) => s.id === node.id) + step)
    for (const [position, id] of order.entries()) {
      if (siblings.find((s) => s.id === id)!.sort_order !== position) await classifierCalls.update(node.level, id, { sort_order: position })
    }
  })
  const child = CHILD[node.level]
  const position = siblings.findIndex((s) => s.id === node.id)
  const { children: _children, level: _level, id: _id, ...values } = node
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Space wrap>
        {child && <Button onClick={() => onAdd(child)}>{t(`classifiers.add.${child}`)}</Button>}
        {node.level !== 'classifier' && <MoveButtons first={position === 0} last={position === siblings.length - 1} busy={move.isPending} onMove={(step) => move.mutate(step)} />}
        <Popconfirm title={t('adminKit.deleteConfirm', { name: nodeName(node) })} description={t('classifiers.deleteHint')} onConfirm={() => remove.mutate(undefined)} okText={t('common.yes')} cancelText={t('common.no')}>
          <Button danger loading={remove.isPending}>{t('terminals.delete')}</Button>
        </Popconfirm>
      </Space>
      <Typography.Text type='secondary'>ID {node.id}</Typography.Text>
      <FormPanel state={state} initialValues={values}><NodeFields level={node.level} /></FormPanel>
    </Space>
  )
}

function NodeCreate ({ level, parent, onClose, onCreated }: { level: Level, parent?: Node, onClose: () => void, onCreated: (key: string) => void }) {
  const { t } = useTranslation()
  const nodeName = useBothNamed()
  const state = useFormSave(keys.admin.classifiers.all, async ({ name_kk: nameKk, ...values }: Values) => {
    const created = await classifierCalls.create(level, parent?.id, { ...values, sort_order: parent?.children.length ?? 0 })
    await saveKazakhNameIfChanged(NAMES[level], created.id, nameKk, null)
    return created
  }, (created) => onCreated(`${level}:${created.id}`))
  return (
    <FormModal title={parent ? `${t(`classifiers.add.${level}`)}: ${nodeName(parent)}` : t(`classifiers.add.${level}`)} state={state} onClose={onClose} initialValues={{ is_active: true, priority: 3 }}>
      <NodeFields level={level} />
    </FormModal>
  )
}
