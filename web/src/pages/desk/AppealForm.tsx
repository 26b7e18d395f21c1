import { Alert, Button, Card, Col, Form, Input, Row, Select } from 'antd'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { registerAppeal } from '../../api/appeals'
import type { Schemas } from '../../api/client'
import { keys } from '../../api/keys'
import { CitizenFields, citizenBody } from '../../forms/CitizenFields'
import { SearchTreeSelect } from '../../forms/SearchTreeSelect'
import { blank } from '../../forms/values'
import { LanguageField } from '../../forms/LanguageField'
import { useFormSubmit } from '../../forms/useFormSubmit'
import { regionOfPhone } from '../../references/area-code'
import { regionOptions, useAllRegions, useClassificationOptions, useLocalName, useOrganizations, useRegionTree, useResponseMethods, useSources } from '../../references/references'
import { useHotkeys } from '../../shell/hotkeys'
import type { Suggestion } from './Assistant'
import type { DeskCall } from './call'
import { PersonSelect } from './PersonSelect'

interface Values {
  person_id?: number
  citizen?: { full_name?: string, iin?: string, phone?: string, email?: string }
  language: 'kk' | 'ru'
  text: string
  subcategory_id?: number
  region_id?: number
  address?: string
  source_id?: number
  response_method_id?: number
  executor_organization_id?: number
}

const PHONE_SOURCE = /телефон|звон|109|call/i

/** the appeal registered from the call: prefilled from it and from the LLM's suggestion */
export function AppealForm ({ call, suggestion, onRegistered }: { call: DeskCall | null, suggestion: Suggestion, onRegistered: (appeal: Schemas['AppealResponse']) => void }) {
  const { t } = useTranslation()
  const [registered, setRegistered] = useState<Schemas['AppealResponse']>()
  const { form, busy, error, handleSubmit, clearError } = useFormSubmit({
    send: (v: Values) => registerAppeal({
      citizen: v.person_id ? { person_id: v.person_id } : citizenBody(v.citizen),
      language: v.language, text: v.text, subcategory_id: v.subcategory_id!, region_id: v.region_id, address: blank(v.address),
      source_id: v.source_id!, response_method_id: v.response_method_id!, executor_organization_id: v.executor_organization_id,
      call_row_id: call?.id,
    }),
    invalidates: [keys.appeals.all],
    onDone: (appeal, sent) => {
      setRegistered(appeal)
      form.resetFields()
      // the call goes on: its caller stays (now the citizen just registered), and so does the source
      if (call && appeal.call_row_id === call.id) {
        form.setFieldsValue({ person_id: appeal.person_id ?? call.person?.id, citizen: { phone: call.phone ?? undefined }, source_id: sent.source_id })
      }
      onRegistered(appeal)
    },
  })
  const sources = useSources()
  const methods = useResponseMethods()
  const classification = useClassificationOptions()
  const regions = useRegionTree()
  const allRegions = useAllRegions()
  const organizations = useOrganizations()
  const sourceName = useLocalName('sources')
  const methodName = useLocalName('response-methods')
  const regionName = useLocalName('regions')
  const personId = Form.useWatch('person_id', form)
  const regionId = Form.useWatch('region_id', form)

  // a new call starts a new form (only a new call: an update of the same call, its person matched
  // later, keeps what the operator typed), and the antd form is the external system synchronised here
  useEffect(() => {
    form.resetFields()
    form.setFieldsValue({ person_id: call?.person?.id, citizen: { phone: call?.phone ?? undefined } })
    clearError()
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the form's own messages go with the form it resets
    if (call) setRegistered(undefined)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the call's id on purpose (see above)
  }, [call?.id, form])

  useEffect(() => {
    if (suggestion.text && !blank(form.getFieldValue('text') as string | undefined)) form.setFieldValue('text', suggestion.text)
    if (suggestion.subcategoryId && !form.getFieldValue('subcategory_id')) form.setFieldValue('subcategory_id', suggestion.subcategoryId)
    if (suggestion.language && !form.isFieldTouched('language')) form.setFieldValue('language', suggestion.language)
  }, [suggestion, form])

  useEffect(() => {
    if (form.getFieldValue('source_id') || !sources.data) return
    form.setFieldValue('source_id', (sources.data.find((s) => PHONE_SOURCE.test(s.name)) ?? sources.data[0])?.id)
  }, [sources.data, form, call?.id])

  // a landline caller's region, by the area code, until the operator picks one
  const guessedRegion = useMemo(() => allRegions.data && regionOfPhone(call?.phone, allRegions.data), [allRegions.data, call?.phone])
  useEffect(() => {
    if (guessedRegion && !form.getFieldValue('region_id') && !form.isFieldTouched('region_id')) form.setFieldValue('region_id', guessedRegion.id)
  }, [guessedRegion, call?.id, form])

  const required = { required: true, message: t('common.required') }
  const { help, showHelp } = useHotkeys([
    { keys: 'Ctrl+Enter', label: t('hotkeys.submit'), run: () => form.submit() },
    { keys: 'Alt+1', label: t('hotkeys.person'), run: () => form.focusField('person_id') },
    { keys: 'Alt+2', label: t('hotkeys.text'), run: () => form.focusField('text') },
    { keys: 'Alt+3', label: t('hotkeys.classification'), run: () => form.focusField('subcategory_id') },
  ])
  return (
    <Card size='small' title={t('desk.form.title')} data-testid='appeal-form' extra={<Button type='link' size='small' onClick={showHelp}>{t('hotkeys.show')}</Button>}>
      {help}
      {registered && (
        <Alert
          type='success' showIcon style={{ marginBottom: 12 }} role='status'
          message={<>{t('desk.form.registered', { number: registered.number })} <Link to={`/appeals/${registered.id}`}>{t('desk.form.open')}</Link></>}
        />
      )}
      {error && <Alert type='error' showIcon message={error} role='alert' style={{ marginBottom: 12 }} />}
      <Form form={form} layout='vertical' initialValues={{ language: 'ru' }} onFinish={handleSubmit} requiredMark>
        <Form.Item name='person_id' label={t('desk.form.person')} extra={t('desk.form.personHint')}>
          <PersonSelect known={call?.person ? { value: call.person.id, label: call.person.full_name } : undefined} />
        </Form.Item>
        {!personId && <CitizenFields prefix={['citizen']} />}
        <LanguageField />
        <Form.Item name='text' label={t('desk.form.text')} rules={[required, { max: 20_000 }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} />
        </Form.Item>
        {classification.empty && <Alert type='warning' showIcon role='alert' data-testid='no-subcategories' message={t('desk.form.noSubcategories')} style={{ marginBottom: 12 }} />}
        <Form.Item name='subcategory_id' label={t('desk.form.classification')} rules={[required]}>
          <SearchTreeSelect
            treeData={classification.options} loading={classification.loading}
            placeholder={t('desk.form.classificationSearch')} treeDefaultExpandAll={false} allowClear
            onOpenChange={(open) => { if (open) classification.refresh() }}
          />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item name='region_id' label={t('desk.form.region')} extra={guessedRegion && regionId === guessedRegion.id ? t('desk.form.regionByCode', { code: guessedRegion.code }) : undefined}>
              <SearchTreeSelect treeData={regionOptions(regions.data ?? [], regionName)} loading={regions.isLoading} allowClear />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}><Form.Item name='address' label={t('desk.form.address')} rules={[{ max: 500 }]}><Input /></Form.Item></Col>
          <Col xs={24} md={12}>
            <Form.Item name='source_id' label={t('desk.form.source')} rules={[required]}>
              <Select options={(sources.data ?? []).filter((s) => s.is_active).map((s) => ({ value: s.id, label: sourceName(s) }))} loading={sources.isLoading} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name='response_method_id' label={t('desk.form.responseMethod')} rules={[required]}>
              <Select options={(methods.data ?? []).filter((m) => m.is_active).map((m) => ({ value: m.id, label: methodName(m) }))} loading={methods.isLoading} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name='executor_organization_id' label={t('desk.form.executor')} extra={t('desk.form.executorHint')}>
          <Select showSearch optionFilterProp='label' allowClear options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))} loading={organizations.isLoading} />
        </Form.Item>
        <Button type='primary' htmlType='submit' loading={busy} size='large'>{t('desk.form.submit')}</Button>
      </Form>
    </Card>
  )
}
