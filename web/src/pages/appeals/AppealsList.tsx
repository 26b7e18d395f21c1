import { DownloadOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Alert, App, Button, Card, Checkbox, Col, DatePicker, Form, Input, Row, Select, Space, Table, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { appealListQuery, downloadExport } from '../../api/appeals'
import type { Schemas } from '../../api/client'
import { SearchTreeSelect } from '../../forms/SearchTreeSelect'
import { useFormat } from '../../i18n/format'
import { regionOptions, useClassificationOptions, useLocalName, useNames, useOrganizations, useRegionNames, useRegionTree, useSubcategories } from '../../references/references'
import { filtersFromUrl, filtersToUrl, STATUSES, type AppealQuery } from './filters'
import { StatusTag } from './StatusTag'
import { centreDayOf, centrePeriod } from '../../i18n/centre-time'

type Appeal = Schemas['AppealResponse']
interface FilterValues extends Omit<AppealQuery, 'received_from' | 'received_to'> { received?: [Dayjs, Dayjs] | null }

const PAGE = 50

/** the register: every filter in the URL, newest first, keyset pages, overdue in red, export */
export function AppealsList () {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const { message } = App.useApp()
  const [params, setParams] = useSearchParams()
  const navigate = useNavigate()
  const filters = filtersFromUrl(params)
  const cursor = params.get('cursor') ?? undefined
  // the filter form is made anew from the URL at each change of it, and at a reset (also of what was typed and not applied):
  // a form instance kept across those would keep its old values over the new initial ones
  const [resets, setResets] = useState(0)
  const [exporting, setExporting] = useState<string>()
  const classification = useClassificationOptions()
  const regions = useRegionTree()
  const organizations = useOrganizations()
  const subcategoryNames = useNames(useSubcategories().data, useLocalName('subcategories'))
  const regionNames = useRegionNames()
  const regionName = useLocalName('regions')
  const organizationNames = useNames(organizations.data)

  const page = useQuery(appealListQuery(filters, cursor, PAGE))

  function apply (values: FilterValues) {
    const { received, ...rest } = values
    // the picked days are the centre's: from its first to its last instant on the centre's clock
    const period = received?.[0] && received[1] ? centrePeriod(received[0].format('YYYY-MM-DD'), received[1].format('YYYY-MM-DD')) : undefined
    setParams(filtersToUrl({ ...rest, received_from: period?.from, received_to: period?.to }))
  }

  async function exportAs (kind: 'xlsx' | 'csv') {
    setExporting(kind)
    try {
      const { rows, truncated } = await downloadExport(filters, kind, i18n.language === 'kk' ? 'kk' : 'ru')
      void message.success(truncated ? t('appeals.exportTruncated', { rows: format.number(rows) }) : t('appeals.exported', { rows: format.number(rows) }))
    } catch {
      void message.error(t('appeals.exportFailed'))
    } finally {
      setExporting(undefined)
    }
  }

  const columns = [
    { title: t('appeals.number'), dataIndex: 'number', render: (n: string, a: Appeal) => <Link to={`/appeals/${a.id}`}>{n}</Link> },
    { title: t('appeals.received'), dataIndex: 'received_at', render: (v: string) => format.dateTime(v) },
    { title: t('appeals.citizen'), dataIndex: 'citizen_name' },
    { title: t('appeals.classification'), dataIndex: 'subcategory_id', render: (id: number) => subcategoryNames.get(id) ?? `#${id}` },
    { title: t('appeals.region'), dataIndex: 'region_id', render: (id: number | null) => (id && regionNames.get(id)) ?? '—' },
    { title: t('appeals.executor'), dataIndex: 'executor_organization_id', render: (id: number | null) => (id && organizationNames.get(id)) ?? '—' },
    { title: t('appeals.status'), dataIndex: 'status', render: (s: string, a: Appeal) => <Space size={4} wrap><StatusTag status={s} />{a.is_overdue && <Tag color='red'>{t('appeals.overdue')}</Tag>}{a.is_repeat && <Tag color='purple'>{t('appeals.repeat')}</Tag>}</Space> },
    { title: t('appeals.due'), dataIndex: 'close_due_at', render: (v: string, a: Appeal) => format.dateTime(a.extended_until ?? v) },
  ]

  const initial: FilterValues = {
    ...filters,
    received: filters.received_from && filters.received_to ? [dayjs(centreDayOf(filters.received_from)), dayjs(centreDayOf(filters.received_to))] : undefined,
  }
  return (
    <Space direction='vertical' size='middle' style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>{t('appeals.title')}</Typography.Title>
      <Card size='small'>
        <Form<FilterValues> layout='vertical' initialValues={initial} onFinish={apply} key={`${params.toString()}#${resets}`}>
          <Row gutter={12}>
            <Col xs={24} md={8}><Form.Item name='q' label={t('appeals.search')}><Input allowClear placeholder={t('appeals.searchHint')} /></Form.Item></Col>
            <Col xs={12} md={4}><Form.Item name='iin' label={t('desk.form.iin')} rules={[{ pattern: /^\d{12}$/, message: t('appeals.iin12') }]}><Input allowClear maxLength={12} /></Form.Item></Col>
            <Col xs={12} md={4}><Form.Item name='phone' label={t('desk.form.phone')}><Input allowClear /></Form.Item></Col>
            <Col xs={12} md={4}>
              <Form.Item name='status' label={t('appeals.status')}>
                <Select allowClear options={STATUSES.map((s) => ({ value: s, label: t(`appeals.statuses.${s}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}><Form.Item name='overdue' label=' ' valuePropName='checked'><Checkbox>{t('appeals.onlyOverdue')}</Checkbox></Form.Item></Col>
            <Col xs={24} md={8}>
              <Form.Item name='subcategory_id' label={t('appeals.classification')}>
                <SearchTreeSelect allowClear treeData={classification.options} />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item name='region_id' label={t('appeals.region')}>
                <SearchTreeSelect allowClear treeData={regionOptions(regions.data ?? [], regionName)} />
              </Form.Item>
            </Col>
            <Col xs={24} md={5}>
              <Form.Item name='executor_organization_id' label={t('appeals.executor')}>
                <Select allowClear showSearch optionFilterProp='label' options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={5}><Form.Item name='received' label={t('appeals.period')}><DatePicker.RangePicker style={{ width: '100%' }} /></Form.Item></Col>
          </Row>
          <Space wrap>
            <Button type='primary' htmlType='submit'>{t('appeals.apply')}</Button>
            <Button onClick={() => { setResets((n) => n + 1); setParams(new URLSearchParams()) }}>{t('appeals.reset')}</Button>
            <Button icon={<DownloadOutlined />} loading={exporting === 'xlsx'} onClick={() => { void exportAs('xlsx') }}>XLSX</Button>
            <Button icon={<DownloadOutlined />} loading={exporting === 'csv'} onClick={() => { void exportAs('csv') }}>CSV</Button>
          </Space>
        </Form>
      </Card>
      {page.isError && <Alert type='error' showIcon message={t('common.networkError')} action={<Button onClick={() => { void page.refetch() }}>{t('common.retry')}</Button>} />}
      <Table<Appeal>
        rowKey='id' size='small' columns={columns} dataSource={page.data?.items} loading={page.isFetching} pagination={false}
        rowClassName={(a) => (a.is_overdue ? 'row-overdue' : '')} data-testid='appeals-table'
        locale={{ emptyText: page.isLoading ? t('common.loading') : t('appeals.empty') }}
        onRow={(a) => ({ onDoubleClick: () => navigate(`/appeals/${a.id}`) })}
        scroll={{ x: 900 }}
      />
      <Space>
        <Button disabled={!cursor} onClick={() => navigate(-1)}>{t('appeals.previous')}</Button>
        <Button disabled={!cursor} onClick={() => { const next = new URLSearchParams(params); next.delete('cursor'); setParams(next) }}>{t('appeals.first')}</Button>
        <Button
          disabled={!page.data?.next_cursor}
          onClick={() => { const next = new URLSearchParams(params); next.set('cursor', page.data!.next_cursor!); setParams(next) }}
        >
          {t('appeals.next')}
        </Button>
      </Space>
    </Space>
  )
}
