import { Form, Radio } from 'antd'
import { useTranslation } from 'react-i18next'

/** the language of an appeal or of its answer: Russian or Kazakh, required */
export function LanguageField () {
  const { t } = useTranslation()
  return (
    <Form.Item name='language' label={t('desk.form.language')} rules={[{ required: true, message: t('common.required') }]}>
      <Radio.Group optionType='button' options={[{ value: 'ru', label: t('appealLanguage.ru') }, { value: 'kk', label: t('appealLanguage.kk') }]} />
    </Form.Item>
  )
}
