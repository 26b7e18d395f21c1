import { Navigate, Route, Routes } from 'react-router'
import { ChangePassword } from './pages/ChangePassword'
import { ForgotPassword } from './pages/ForgotPassword'
import { Invite } from './pages/Invite'
import { Profile } from './pages/Profile'
import { ResetPassword } from './pages/ResetPassword'
import { SignIn } from './pages/SignIn'
import { Shell } from './shell/Shell'

export function App () {
  return (
    <Routes>
      <Route path='/signin' element={<SignIn />} />
      <Route path='/invite' element={<Invite />} />
      <Route path='/forgot-password' element={<ForgotPassword />} />
      <Route path='/reset-password' element={<ResetPassword />} />
      <Route element={<Shell />}>
        <Route path='/profile' element={<Profile />} />
        <Route path='/change-password' element={<ChangePassword />} />
        <Route path='*' element={<Navigate to='/profile' replace />} />
      </Route>
    </Routes>
  )
}
