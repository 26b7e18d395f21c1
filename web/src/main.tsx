import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './i18n'
import { ConsoleNotLoaded } from './pages/ConsoleNotLoaded'
import { SignIn } from './pages/SignIn'
import { readSession, keepSignIn } from './session/stored'
import { fetchAhead, reloadOnNewBuild } from './shell/reload'
import './styles.css'

// The console starts small: a visitor with no session (most first loads of the day) sees the
// sign-in page, drawn without Ant Design, while the rest loads behind it. With a session, or on
// the other pages before sign-in (invitation, password reset), the whole console opens at once.

const BASE = '/console'
/** the pages that need no session, opened directly by the mail's links */
const PUBLIC = ['/invite', '/forgot-password', '/reset-password']

const root = createRoot(document.getElementById('root')!)
const loadConsole = () => import('./console')

/** the whole console in place of what the page shows; its code that cannot be fetched is said in words, never a blank page */
async function openConsole (): Promise<void> {
  try {
    const { Console } = await loadConsole()
    root.render(<StrictMode><Console /></StrictMode>)
  } catch (failure) {
    root.render(<StrictMode><ConsoleNotLoaded failure={failure} /></StrictMode>)
  }
}

/** where the console goes from the sign-in page (the console's own `next`, as its pages' guard writes it) */
function nextPath (): string {
  const next = new URLSearchParams(window.location.search).get('next')
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/'
}

/** whether the page opens on sign-in (the address then says so), or the whole console is needed at once */
function signInFirst (): boolean {
  const path = window.location.pathname.replace(/^\/console/, '').replace(/\/$/, '') || '/'
  if (path === '/signin') return true
  if (readSession() || PUBLIC.includes(path)) return false
  // the pages' guard would send the visitor to sign-in and back afterwards: the same, without loading the pages first
  if (path !== '/') window.history.replaceState(null, '', `${BASE}/signin?next=${encodeURIComponent(path + window.location.search)}`)
  else window.history.replaceState(null, '', `${BASE}/signin`)
  return true
}

/** Safari has no requestIdleCallback */
const whenIdle = (work: () => void) => 'requestIdleCallback' in window ? window.requestIdleCallback(work, { timeout: 2000 }) : setTimeout(work, 200)

reloadOnNewBuild()
if (signInFirst()) {
  root.render(
    <StrictMode>
      <SignIn
        onSignedIn={async (answer) => {
          keepSignIn(answer)
          // the address first: a reload from here (the console's code not fetched) opens the console there
          window.history.replaceState(null, '', BASE + (answer.must_change_password ? '/change-password' : nextPath()))
          await openConsole()
        }}
        onForgot={() => { window.history.pushState(null, '', `${BASE}/forgot-password`); void openConsole() }}
      />
    </StrictMode>
  )
  // fetched and set up while the user types; drawn once the sign-in is accepted
  whenIdle(() => { void fetchAhead(loadConsole) })
} else {
  void openConsole()
}
