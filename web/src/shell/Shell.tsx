import { LogoutOutlined, UserOutlined } from '@ant-design/icons'
import { Button, Layout, Menu, Space, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router'
import { useSession } from '../session/session'
import { LanguageSwitch } from './LanguageSwitch'

/** the frame of a signed-in user's pages; without a session, sign-in first (and back here after) */
export function Shell () {
  const { t } = useTranslation()
  const session = useSession()
  const location = useLocation()
  const navigate = useNavigate()
  if (!session.user) return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />
  if (session.mustChangePassword && location.pathname !== '/change-password') return <Navigate to='/change-password' replace />

  const items = [{ key: '/profile', icon: <UserOutlined />, label: t('nav.profile') }]
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 16, background: '#001529' }}>
        <Typography.Text strong style={{ color: '#fff', fontSize: 16, whiteSpace: 'nowrap' }}>{t('app.title')}</Typography.Text>
        <div style={{ flex: 1 }} />
        <Space size='middle'>
          <LanguageSwitch />
          <Typography.Text style={{ color: '#fff' }} data-testid='current-user'>{session.user.full_name}</Typography.Text>
          <Button icon={<LogoutOutlined />} onClick={() => session.signOut()}>{t('nav.signOut')}</Button>
        </Space>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={220} theme='light' breakpoint='lg' collapsedWidth={0}>
          <nav aria-label={t('app.title')}>
            <Menu mode='inline' selectedKeys={[location.pathname]} items={items} onClick={({ key }) => navigate(key)} />
          </nav>
        </Layout.Sider>
        <Layout.Content style={{ padding: 24 }}>
          <main><Outlet /></main>
        </Layout.Content>
      </Layout>
    </Layout>
  )
}
