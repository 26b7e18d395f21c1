import { useQuery } from '@tanstack/react-query'
import { Alert, Descriptions, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { phoneSettingsQuery } from '../../api/telephony'

/**
 * What a phone needs to register as a terminal, each value to copy: the server and port, the
 * transport, the username (the terminal's id), the realm, the password when it was just set; and how
 * to test it (the echo test).
 */
export function PhoneSettings ({ tenant, terminal, password }: { tenant: number, terminal: { id: string, transport: string, phone?: 'desk' | 'browser' }, password?: string }) {
  const { t } = useTranslation()
  const settings = useQuery(phoneSettingsQuery(tenant)).data
  if (!settings) return null
  const copyable = (text: string) => <Typography.Text copyable={{ text }} code>{text}</Typography.Text>
  if (terminal.phone === 'browser') {
    // nothing to type: the employee's console registers it with a key of its own
    return (
      <>
        <Alert type={settings.websocket_url === null ? 'warning' : 'info'} showIcon message={t(settings.websocket_url === null ? 'phone.noWebsocket' : 'phone.browser')} style={{ marginBottom: 12 }} />
        <Descriptions size='small' column={1} bordered data-testid='phone-settings'>
          <Descriptions.Item label={t('phone.websocket')}>{settings.websocket_url === null ? '—' : copyable(settings.websocket_url)}</Descriptions.Item>
          <Descriptions.Item label={t('phone.username')}>{copyable(terminal.id)}</Descriptions.Item>
        </Descriptions>
      </>
    )
  }
  return (
    <>
      {settings.server === null && <Alert type='warning' showIcon message={t('phone.noServer')} style={{ marginBottom: 12 }} />}
      <Descriptions size='small' column={1} bordered data-testid='phone-settings'>
        <Descriptions.Item label={t('phone.server')}>{settings.server === null ? '—' : copyable(settings.server)}</Descriptions.Item>
        <Descriptions.Item label={t('phone.port')}>{copyable(String(settings.port))}</Descriptions.Item>
        <Descriptions.Item label={t('phone.transport')}>{terminal.transport === 'transport-tcp' ? 'TCP' : terminal.transport === 'transport-tls' ? 'TLS' : 'UDP'}</Descriptions.Item>
        <Descriptions.Item label={t('phone.username')}>{copyable(terminal.id)}</Descriptions.Item>
        <Descriptions.Item label={t('phone.realm')}>{copyable(settings.realm)}</Descriptions.Item>
        <Descriptions.Item label={t('phone.password')}>{password ? copyable(password) : <Typography.Text type='secondary'>{t('phone.passwordHidden')}</Typography.Text>}</Descriptions.Item>
      </Descriptions>
      <Alert type='info' showIcon style={{ marginTop: 12 }} message={t('phone.test', { code: settings.echo_test })} />
    </>
  )
}
