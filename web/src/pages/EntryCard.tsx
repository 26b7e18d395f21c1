import { Card, Flex, Typography } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LanguageSwitch } from '../shell/LanguageSwitch'

/** the frame of the pages before sign-in: the centre's name, the language, one card */
export function EntryCard ({ title, children }: { title: string, children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Flex vertical align='center' justify='center' style={{ minHeight: '100vh', padding: 24, background: '#f0f2f5' }}>
      <Flex justify='space-between' align='center' style={{ width: '100%', maxWidth: 420, marginBottom: 16 }}>
        <Typography.Text strong>{t('app.centre')}</Typography.Text>
        <LanguageSwitch />
      </Flex>
      <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{title}</h1>} style={{ width: '100%', maxWidth: 420 }}>
        {children}
      </Card>
    </Flex>
  )
}
