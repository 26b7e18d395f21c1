import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { useToken, type Schemas } from '../api/client'
import { rememberedLanguage } from '../i18n'
import i18n from '../i18n'

export type SessionUser = Schemas['LoginUser']
interface Stored { token: string, user: SessionUser, mustChangePassword: boolean }

interface Session {
  token: string | null
  user: SessionUser | null
  mustChangePassword: boolean
  signIn: (answer: Schemas['LoginResponse']) => void
  /** a password change answers a new token: the old ones are revoked */
  replaceToken: (token: string) => void
  signOut: () => void
  /** set when the service ended the session (a 401): the sign-in page says so */
  expired: boolean
}

const STORAGE_KEY = 'console.session'
const SessionContext = createContext<Session | null>(null)

function load (): Stored | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Stored | null
    return stored?.token && stored.user ? stored : null
  } catch {
    return null
  }
}

/** the signed-in user, kept in localStorage so that a reload keeps the session */
export function SessionProvider ({ children }: { children: ReactNode }) {
  const navigate = useNavigate()
  const [stored, setStored] = useState<Stored | null>(load)
  const [expired, setExpired] = useState(false)
  const save = useCallback((next: Stored | null) => {
    if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify(next))
    else localStorage.removeItem(STORAGE_KEY)
    setStored(next)
  }, [])

  const signOut = useCallback(() => {
    save(null)
    navigate('/signin', { replace: true })
  }, [navigate, save])
  // set during render, not in an effect: the first queries of a reloaded page already carry the token.
  // A 401 ends the session where it is: the page's guard sends the user to sign-in and back afterwards.
  useToken(stored?.token ?? null, () => {
    if (!load()) return
    setExpired(true)
    save(null)
  })

  const session = useMemo<Session>(() => ({
    token: stored?.token ?? null,
    user: stored?.user ?? null,
    mustChangePassword: stored?.mustChangePassword ?? false,
    expired,
    signIn (answer) {
      setExpired(false)
      save({ token: answer.access_token, user: answer.user, mustChangePassword: answer.must_change_password })
      void i18n.changeLanguage(rememberedLanguage(answer.user.id))
    },
    replaceToken (token) {
      if (stored) save({ ...stored, token, mustChangePassword: false })
    },
    signOut: () => signOut(),
  }), [stored, expired, save, signOut])

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
}

/** the session where there may be none (the pages before sign-in) */
export function useOptionalSession (): Session | null {
  return useContext(SessionContext)
}

export function useSession (): Session {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside SessionProvider')
  return session
}
