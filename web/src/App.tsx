import { Spin } from 'antd'
import { lazy } from 'react'
import { Navigate, Route, Routes, useNavigate, useSearchParams } from 'react-router'
import { ChangePassword } from './pages/ChangePassword'
import { ForgotPassword } from './pages/ForgotPassword'
import { Invite } from './pages/Invite'
import { Profile } from './pages/Profile'
import { ResetPassword } from './pages/ResetPassword'
import { SignIn } from './pages/SignIn'
import { useSession } from './session/session'
import { useWorkplace } from './session/workplace'
import { homeOf } from './shell/access'
import { Shell } from './shell/Shell'

// the working pages load when first opened: the sign-in page stays small
const named = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) => lazy(async () => ({ default: (await load())[name] }))
const Desk = named(() => import('./pages/desk/Desk'), 'Desk')
const AppealsList = named(() => import('./pages/appeals/AppealsList'), 'AppealsList')
const Inbox = named(() => import('./pages/appeals/Inbox'), 'Inbox')
const AppealPage = named(() => import('./pages/appeals/AppealPage'), 'AppealPage')
const Board = named(() => import('./pages/board/Board'), 'Board')
const Hall = named(() => import('./pages/board/LineBoard'), 'Hall')
const LineCalls = named(() => import('./pages/calls/LineCalls'), 'LineCalls')
const Employees = named(() => import('./pages/admin/Employees'), 'Employees')
const Terminals = named(() => import('./pages/admin/Terminals'), 'Terminals')
const Pbx = named(() => import('./pages/admin/Pbx'), 'Pbx')
const Routing = named(() => import('./pages/admin/routing/Routing'), 'Routing')
const Organizations = named(() => import('./pages/admin/Organizations'), 'Organizations')
const Classifiers = named(() => import('./pages/admin/Classifiers'), 'Classifiers')
const References = named(() => import('./pages/admin/References'), 'References')
const Persons = named(() => import('./pages/admin/Persons'), 'Persons')
const Regions = named(() => import('./pages/admin/Regions'), 'Regions')
const Calendar = named(() => import('./pages/admin/Calendar'), 'Calendar')
const Notifications = named(() => import('./pages/admin/Notifications'), 'Notifications')
const Tenants = named(() => import('./pages/admin/Tenants'), 'Tenants')

/** the sign-in page inside the console: after a sign-out, or a session the service ended */
function SignInRoute () {
  const session = useSession()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  return (
    <SignIn
      expired={session.expired}
      onSignedIn={(answer) => {
        session.signIn(answer)
        navigate(answer.must_change_password ? '/change-password' : params.get('next') ?? '/', { replace: true })
      }}
      onForgot={() => navigate('/forgot-password')}
    />
  )
}

/** each lands on its work: the centre's operators at the desk, an executor's staff in their inbox */
function Home () {
  const { user } = useSession()
  const workplace = useWorkplace()
  if (!user) return <Navigate to='/signin' replace />
  if (workplace.isPending) return <Spin size='large' style={{ display: 'block', margin: '80px auto' }} />
  return <Navigate to={homeOf(user, workplace.data)} replace />
}

export function App () {
  return (
    <Routes>
      <Route path='/signin' element={<SignInRoute />} />
      <Route path='/invite' element={<Invite />} />
      <Route path='/forgot-password' element={<ForgotPassword />} />
      <Route path='/reset-password' element={<ResetPassword />} />
      <Route element={<Shell bare />}>
        <Route path='/board/hall' element={<Hall />} />
      </Route>
      <Route element={<Shell />}>
        <Route path='/desk' element={<Desk />} />
        <Route path='/inbox' element={<Inbox />} />
        <Route path='/appeals' element={<AppealsList />} />
        <Route path='/appeals/:id' element={<AppealPage />} />
        <Route path='/board' element={<Board />} />
        <Route path='/calls' element={<LineCalls />} />
        <Route path='/admin/employees' element={<Employees />} />
        <Route path='/admin/terminals' element={<Terminals />} />
        <Route path='/admin/routing' element={<Routing />} />
        <Route path='/admin/pbx' element={<Pbx />} />
        <Route path='/admin/organizations' element={<Organizations />} />
        <Route path='/admin/classifiers' element={<Classifiers />} />
        <Route path='/admin/references' element={<References />} />
        <Route path='/admin/persons' element={<Persons />} />
        <Route path='/admin/regions' element={<Regions />} />
        <Route path='/admin/calendar' element={<Calendar />} />
        <Route path='/admin/notifications' element={<Notifications />} />
        <Route path='/admin/tenants' element={<Tenants />} />
        <Route path='/profile' element={<Profile />} />
        <Route path='/change-password' element={<ChangePassword />} />
        <Route path='*' element={<Home />} />
      </Route>
    </Routes>
  )
}
