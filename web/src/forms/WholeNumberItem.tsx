import { Form, Input } from 'antd'
import type { NamePath } from 'antd/es/form/interface'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** what the field holds: the number typed, null when empty, the text itself when it is no whole number (refused by the check) */
const asNumber = (text: string): number | string | null => {
  const trimmed = text.trim()
  if (trimmed === '') return null
  return /^-?\d{1,9}$/.test(trimmed) ? Number(trimmed) : text
}

/**
 * A whole number within bounds that says, on the field, what is wrong with what was typed. Ant
 * Design's InputNumber changes it instead, without a word: -5 became its minimum and "abc" nothing.
 */
export function WholeNumberItem ({ name, label, min, max, unit, required = false }: { name: NamePath, label: ReactNode, min: number, max: number, unit?: ReactNode, required?: boolean }) {
  const { t } = useTranslation()
  return (
    <Form.Item
      name={name}
      label={label}
      normalize={asNumber}
      getValueProps={(value: unknown) => ({ value: value === null || value === undefined ? '' : String(value) })}
      rules={[{
        validator: async (_, value: unknown) => {
          if (value === null || value === undefined) { if (required) throw new Error(t('common.required')); return }
          if (typeof value !== 'number') throw new Error(t('common.wholeNumber'))
          if (value < min || value > max) throw new Error(t('common.between', { min, max }))
        },
      }]}
    >
      <Input inputMode='numeric' addonAfter={unit} />
    </Form.Item>
  )
}
