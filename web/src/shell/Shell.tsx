import { AudioOutlined, DashboardOutlined, FileTextOutlined, InboxOutlined, LogoutOutlined, PhoneOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Grid, Layout, Menu, Space, Spin, Tag, Tooltip, Typography, type MenuProps } from 'antd'
import { lazy, Suspense } from 'react'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router'
import { myPhonesQuery } from '../api/agents'
import { LiveProvider, useLiveStatus } from '../live/live'
import { useSession, type SessionUser } from '../session/session'
import { useWorkplace } from '../session/workplace'
import { LanguageSwitch } from './LanguageSwitch'
import { PageBoundary } from './PageBoundary'
import { AssignmentNotices } from './assignment-notice'
import { ADMIN_PAGES, canSeeAdminPage, canUseBoard, canUseDesk, canUseInbox, isExecutorStaff, type Workplace } from './access'

// the search's dropdown is Ant Design's AutoComplete: fetched after sign-in, not with the sign-in page
const HeaderSearch = lazy(async () => ({ default: (await import('./HeaderSearch')).HeaderSearch }))
// the browser phone and its SIP library: fetched only for an employee who has one
const PhoneDock = lazy(async () => ({ default: (await import('../phone/PhoneDock')).PhoneDock }))

/**
 * The frame of a signed-in user's pages; without a session, sign-in first (and back here after).
 * `bare`: the page alone, with no header or menu (the hall's screen), still signed in and live.
 */
export function Shell ({ bare = false }: { bare?: boolean }) {
  const { t } = useTranslation()
  const session = useSession()
  const location = useLocation()
  const navigate = useNavigate()
  const workplace = useWorkplace()
  const narrow = !Grid.useBreakpoint().md
  if (!session.user || !session.token) return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />
  if (session.mustChangePassword && location.pathname !== '/change-password') return <Navigate to='/change-password' replace />

  const page = (
    <PageBoundary key={location.pathname}>
      <Suspense fallback={<Spin size='large' style={{ display: 'block', margin: '80px auto' }} />}><Outlet /></Suspense>
    </PageBoundary>
  )
  if (bare) return <LiveProvider token={session.token}><main>{page}</main></LiveProvider>

  // an account without a name (the first administrator's) is named by its role, in the console's language
  const userName = session.user.full_name.trim() || t(`roles.${session.user.role}`)
  const selected = '/' + (location.pathname.split('/')[1] ?? '') + (location.pathname.startsWith('/admin/') ? '/' + location.pathname.split('/')[2] : '')
  return (
    <LiveProvider token={session.token}>
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: narrow ? 8 : 16, background: '#001529', paddingInline: narrow ? 12 : 20, paddingInlineStart: narrow ? 56 : 20 }}>
          <Typography.Text strong style={{ color: '#fff', fontSize: 16, whiteSpace: 'nowrap' }}>{t(narrow ? 'app.short' : 'app.title')}</Typography.Text>
          <div role='search' style={{ flex: 1, display: 'flex', alignItems: 'center', lineHeight: 'normal', justifyContent: narrow ? 'flex-end' : 'center', minWidth: 0 }}>
            <Suspense fallback={null}><HeaderSearch narrow={narrow} withCitizens={workplace.data?.centre_staff === true} /></Suspense>
          </div>
          <Space size={narrow ? 'small' : 'middle'} style={{ minWidth: 0 }}>
            <BrowserPhone />
            <LanguageSwitch short={narrow} />
            {/* a long name is cut with an ellipsis (the whole of it in its title), never broken a letter a line */}
            <Typography.Text ellipsis={{ tooltip: userName }} style={{ color: '#fff', maxWidth: narrow ? 96 : 260, display: 'block' }} data-testid='current-user'>
              {userName}
            </Typography.Text>
            <Button icon={<LogoutOutlined aria-hidden />} aria-label={t('nav.signOut')} title={t('nav.signOut')} onClick={() => session.signOut()}>{narrow ? null : t('nav.signOut')}</Button>
          </Space>
        </Layout.Header>
        <Layout>
          {/* collapsed on a narrow screen: its button sits in the header, not over the page */}
          <Layout.Sider width={230} theme='light' breakpoint='lg' collapsedWidth={0} zeroWidthTriggerStyle={narrow ? { top: -52, insetInlineEnd: -48 } : undefined}>
            <nav aria-label={t('app.title')}>
              <Menu mode='inline' selectedKeys={[selected]} defaultOpenKeys={['admin']} items={menuOf(session.user, workplace.data, t)} onClick={({ key }) => navigate(key)} />
            </nav>
          </Layout.Sider>
          <Layout.Content style={{ padding: 20, minWidth: 0 }}>
            <LiveLost />
            {isExecutorStaff(workplace.data) && <AssignmentNotices organizationId={workplace.data!.organization_id!} />}
            <main>{page}</main>
          </Layout.Content>
        </Layout>
      </Layout>
    </LiveProvider>
  )
}

function menuOf (user: SessionUser, workplace: Workplace | undefined, t: TFunction): MenuProps['items'] {
  const admin = ADMIN_PAGES.filter((page) => canSeeAdminPage(user, page)).map((page) => ({ key: `/admin/${page}`, label: t(`admin.pages.${page}`) }))
  return [
    ...(canUseDesk(user, workplace) ? [{ key: '/desk', icon: <PhoneOutlined aria-hidden />, label: t('nav.desk') }] : []),
    ...(canUseInbox(user, workplace) ? [{ key: '/inbox', icon: <InboxOutlined aria-hidden />, label: t('nav.inbox') }] : []),
    { key: '/appeals', icon: <FileTextOutlined aria-hidden />, label: t('nav.appeals') },
    ...(canUseBoard(user) ? [{ key: '/board', icon: <DashboardOutlined aria-hidden />, label: t('nav.board') }, { key: '/calls', icon: <AudioOutlined aria-hidden />, label: t('nav.calls') }] : []),
    ...(admin.length > 0 ? [{ key: 'admin', icon: <SettingOutlined aria-hidden />, label: t('nav.admin'), children: admin }] : []),
    { key: '/profile', icon: <UserOutlined aria-hidden />, label: t('nav.profile') },
  ]
}

/** the employee's browser phone, in the header of every page so that a call survives moving between them */
function BrowserPhone () {
  const { t } = useTranslation()
  const phones = useQuery(myPhonesQuery).data
  if (!phones || phones.phones.length === 0) return null
  if (!phones.websocket_url) {
    return <Tooltip title={t('softphone.notConfigured')}><Tag color='red' icon={<PhoneOutlined aria-hidden />} data-testid='phone-status'>{phones.phones[0]!.extension}</Tag></Tooltip>
  }
  return <Suspense fallback={null}><PhoneDock phones={phones} /></Suspense>
}

/** the live connection's loss said on every page (events are missed meanwhile), gone when it is back */
function LiveLost () {
  const { t } = useTranslation()
  if (useLiveStatus() !== 'closed') return null
  return <Alert type='warning' showIcon role='alert' data-testid='live-lost' message={t('live.lost')} style={{ marginBottom: 16 }} />
}
