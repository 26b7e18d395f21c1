import { Col, Form, Input, Row } from 'antd'
import { useTranslation } from 'react-i18next'
import { iinProblem } from './iin'
import { messageOf } from './problems'
import { blank } from './values'

/**
 * A citizen's name, IIN (checked as the service checks it), phone and e-mail, under `prefix` of the
 * form's values (`['citizen']` on the appeal form, the top level on the persons page).
 */
export function CitizenFields ({ prefix = [], nameRequired = false }: { prefix?: string[], nameRequired?: boolean }) {
  const { t } = useTranslation()
  const name = (field: string) => [...prefix, field]
  return (
    <Row gutter={12}>
      <Col xs={24} md={12}>
        <Form.Item name={name('full_name')} label={t('desk.form.fullName')} rules={[{ required: nameRequired, message: t('common.required') }, { max: 255 }]}><Input autoComplete='off' /></Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name={name('iin')} label={t('desk.form.iin')} extra={t('desk.form.iinHint')}
          rules={[{ validator: async (_, value?: string) => { const problem = blank(value) && iinProblem(value!.trim()); if (problem) throw new Error(messageOf(t, problem)) } }]}
        >
          <Input inputMode='numeric' maxLength={12} autoComplete='off' />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}><Form.Item name={name('phone')} label={t('desk.form.phone')}><Input type='tel' /></Form.Item></Col>
      <Col xs={24} md={12}><Form.Item name={name('email')} label={t('desk.form.email')} rules={[{ type: 'email', message: t('desk.form.badEmail') }]}><Input type='email' /></Form.Item></Col>
    </Row>
  )
}

/** the citizen's fields as the API takes them: an empty field is left out */
export const citizenBody = (v: { full_name?: string, iin?: string, phone?: string, email?: string } | undefined) =>
  ({ full_name: blank(v?.full_name), iin: blank(v?.iin), phone: blank(v?.phone), email: blank(v?.email) })
