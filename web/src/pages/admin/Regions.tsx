import { useQuery } from '@tanstack/react-query'
import { Button, Card, Col, Empty, Form, Input, Popconfirm, Row, Space, Switch, Tree, Typography, type TreeProps } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { allRegionsQuery, saveKazakhNameIfChanged } from '../../api/references'
import { createRegion, removeRegion, reorderRegions, updateRegion } from '../../api/regions'
import { orNull } from '../../forms/values'
import { keyOnceNamed, useKazakhNames, useLocalName } from '../../references/references'
import { FormModal, FormPanel, KazakhNameItem, LoadError, MoveButtons, PageTitle, TreeTitle, moved, useAction, useFormSave } from './kit'
import { WholeNumberItem } from '../../forms/WholeNumberItem'

type Region = Schemas['RegionResponse']
type Values = Partial<Pick<Region, 'name' | 'phone_code' | 'phone_zone' | 'local_digits' | 'is_regional_center' | 'is_active'>> & { name_kk?: string | null }
// the console's region selects (references) are read again after a change too
const KEY = keys.admin.regions.all

/** the regions with their inactive ones, as children lists by parent (null: the oblasts) */
function useRegions () {
  const regions = useQuery(allRegionsQuery)
  const childrenOf = useMemo(() => {
    const map = new Map<number | null, Region[]>()
    for (const r of regions.data ?? []) map.set(r.parent_id, [...(map.get(r.parent_id) ?? []), r])
    for (const list of map.values()) list.sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name))
    return map
  }, [regions.data])
  return { regions, childrenOf }
}

/** the regions tree, named in the console's language: reorder by dragging (or the arrows), edit names and phone codes, add, deactivate, delete */
export function Regions () {
  const { t } = useTranslation()
  const { regions, childrenOf } = useRegions()
  const regionName = useLocalName('regions')
  const kazakhNames = useKazakhNames('regions').data
  const [selectedId, setSelectedId] = useState<number>()
  const [adding, setAdding] = useState<{ parent?: Region }>()
  const reorder = useAction(KEY, reorderRegions)
  const selected = regions.data?.find((r) => r.id === selectedId)
  const siblingsOf = (r: Region) => childrenOf.get(r.parent_id) ?? []

  const treeData = useMemo(() => {
    const convert = (parent: number | null): TreeProps['treeData'] => (childrenOf.get(parent) ?? []).map((r) => ({
      key: r.id,
      title: <RegionTitle region={r} name={regionName(r)} />,
      children: convert(r.id),
    }))
    return convert(null)
  }, [childrenOf, regionName])
  const byId = useMemo(() => new Map((regions.data ?? []).map((r) => [r.id, r])), [regions.data])

  // dragging reorders among siblings only: moving a region under another parent is an edit of its parent
  const allowDrop: TreeProps['allowDrop'] = ({ dragNode, dropNode, dropPosition }) =>
    dropPosition !== 0 && byId.get(dragNode.key as number)?.parent_id === byId.get(dropNode.key as number)?.parent_id
  const onDrop: TreeProps['onDrop'] = (info) => {
    const dragged = byId.get(info.dragNode.key as number)
    const target = byId.get(info.node.key as number)
    if (!dragged || !target || dragged.parent_id !== target.parent_id) return
    const siblings = siblingsOf(target)
    const path = info.node.pos.split('-')
    const after = info.dropPosition - Number(path[path.length - 1]) > 0
    const rest = siblings.filter((s) => s.id !== dragged.id)
    reorder.mutate(moved(siblings, dragged.id, rest.findIndex((s) => s.id === target.id) + (after ? 1 : 0)))
  }

  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <PageTitle>{t('admin.pages.regions')}</PageTitle>
      <Space wrap>
        <Button type='primary' onClick={() => setAdding({})}>{t('regions.addOblast')}</Button>
        <Typography.Text type='secondary'>{t('regions.dragHint')}</Typography.Text>
      </Space>
      <LoadError query={regions} />
      <Row gutter={16}>
        <Col xs={24} lg={12}>
          <Card size='small' loading={regions.isLoading}>
            {treeData?.length
              ? <Tree draggable={{ icon: false }} blockNode showLine treeData={treeData} allowDrop={allowDrop} onDrop={onDrop} disabled={reorder.isPending} selectedKeys={selectedId ? [selectedId] : []} onSelect={([key]) => setSelectedId(key as number | undefined)} />
              : <Empty description={t('regions.empty')} />}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size='small' title={selected && regionName(selected)}>
            {selected
              ? <RegionEditor key={keyOnceNamed(selected.id, kazakhNames)} region={selected} nameKk={kazakhNames?.get(selected.id) ?? null} siblings={siblingsOf(selected)} onReorder={(ids) => reorder.mutate(ids)} reordering={reorder.isPending} onAdd={() => setAdding({ parent: selected })} onRemoved={() => setSelectedId(undefined)} />
              : <Empty description={t('regions.pick')} />}
          </Card>
        </Col>
      </Row>
      {adding && <RegionCreate parent={adding.parent} onClose={() => setAdding(undefined)} onCreated={(id) => { setAdding(undefined); setSelectedId(id) }} />}
    </Space>
  )
}

function RegionTitle ({ region, name }: { region: Region, name: string }) {
  return (
    <TreeTitle name={name} active={region.is_active}>
      {region.full_phone_code && <Typography.Text type='secondary' style={{ marginInlineStart: 8 }}>{region.full_phone_code}</Typography.Text>}
    </TreeTitle>
  )
}

function RegionFields ({ existing }: { existing: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <Form.Item name='name' label={t('common.nameRu')} rules={[{ required: true, message: t('common.required') }, { max: 255 }]}><Input autoFocus /></Form.Item>
      <KazakhNameItem />
      <Row gutter={12}>
        <Col span={8}><Form.Item name='phone_code' label={t('regions.phoneCode')} rules={[{ pattern: /^\d{3,5}$/, message: t('regions.badCode') }]}><Input inputMode='numeric' maxLength={5} /></Form.Item></Col>
        <Col span={8}><Form.Item name='phone_zone' label={t('regions.phoneZone')} rules={[{ pattern: /^\d{3}$/, message: t('regions.badZone') }]}><Input inputMode='numeric' /></Form.Item></Col>
        <Col span={8}><WholeNumberItem name='local_digits' label={t('regions.localDigits')} min={5} max={7} /></Col>
      </Row>
      <Space size='large'>
        <Form.Item name='is_regional_center' label={t('regions.regionalCenter')} valuePropName='checked'><Switch /></Form.Item>
        {existing && <Form.Item name='is_active' label={t('adminKit.active')} valuePropName='checked'><Switch /></Form.Item>}
      </Space>
    </>
  )
}

const regionBody = (v: Values) => ({ name: v.name!, phone_code: orNull(v.phone_code), phone_zone: orNull(v.phone_zone), local_digits: v.local_digits ?? null, is_regional_center: v.is_regional_center ?? false })

function RegionEditor ({ region, nameKk, siblings, onReorder, reordering, onAdd, onRemoved }: { region: Region, nameKk: string | null, siblings: Region[], onReorder: (ids: number[]) => void, reordering: boolean, onAdd: () => void, onRemoved: () => void }) {
  const { t } = useTranslation()
  const regionName = useLocalName('regions')
  const state = useFormSave(KEY, async (v: Values) => {
    await updateRegion(region.id, { ...regionBody(v), is_active: v.is_active })
    await saveKazakhNameIfChanged('regions', region.id, v.name_kk, nameKk)
  }, () => undefined)
  const remove = useAction(KEY, () => removeRegion(region.id), (r) => { onRemoved(); return r.message })
  const position = siblings.findIndex((s) => s.id === region.id)
  return (
    <Space direction='vertical' style={{ width: '100%' }}>
      <Space wrap>
        <Button onClick={onAdd}>{t('regions.addChild')}</Button>
        <MoveButtons first={position === 0} last={position === siblings.length - 1} busy={reordering} onMove={(step) => onReorder(moved(siblings, region.id, position + step))} />
        <Popconfirm title={t('adminKit.deleteConfirm', { name: region.name })} onConfirm={() => remove.mutate(undefined)} okText={t('common.yes')} cancelText={t('common.no')}>
          <Button danger loading={remove.isPending}>{t('terminals.delete')}</Button>
        </Popconfirm>
      </Space>
      <Typography.Text type='secondary'>{region.parent_id !== null && region.parent_name ? `${t('regions.parent')}: ${regionName({ id: region.parent_id, name: region.parent_name })}` : t('regions.oblast')}</Typography.Text>
      <FormPanel state={state} initialValues={{ ...region, name_kk: nameKk }}><RegionFields existing /></FormPanel>
    </Space>
  )
}

function RegionCreate ({ parent, onClose, onCreated }: { parent?: Region, onClose: () => void, onCreated: (id: number) => void }) {
  const { t } = useTranslation()
  const regionName = useLocalName('regions')
  const state = useFormSave(KEY, async (v: Values) => {
    const created = await createRegion({ ...regionBody(v), parent_id: parent?.id ?? null })
    await saveKazakhNameIfChanged('regions', created.id, v.name_kk, null)
    return created
  }, (r) => onCreated(r.id))
  return (
    <FormModal title={parent ? `${t('regions.addChild')}: ${regionName(parent)}` : t('regions.addOblast')} state={state} onClose={onClose} initialValues={{ is_regional_center: false }}>
      <RegionFields existing={false} />
    </FormModal>
  )
}
