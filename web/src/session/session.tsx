import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { useToken, type Schemas } from '../api/client'
import { keepSignIn, readSession, writeSession, type StoredSession as Stored } from './stored'

export type SessionUser = Schemas['LoginUser']

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

const SessionContext = createContext<Session | null>(null)

/** the signed-in user, kept in localStorage so that a reload keeps the session */
export function SessionProvider ({ children }: { children: ReactNode }) {
  const navigate = useNavigate()
  const [stored, setStored] = useState<Stored | null>(readSession)
  const [expired, setExpired] = useState(false)
  const save = useCallback((next: Stored | null) => {
    writeSession(next)
    setStored(next)
  }, [])

  const signOut = useCallback(() => {
    // the browser phones' keys renewed: one copied from this browser is void (kept alive past the page's change)
    const token = readSession()?.token
    if (token) void fetch('/api/agents/me/phones', { method: 'DELETE', headers: { authorization: `Bearer ${token}` }, keepalive: true }).catch(() => {})
    save(null)
    navigate('/signin', { replace: true })
  }, [navigate, save])
  // set during render, not in an effect: the first queries of a reloaded page already carry the token.
  // A 401 ends the session where it is: the page's guard sends the user to sign-in and back afterwards.
  useToken(stored?.token ?? null, () => {
    if (!readSession()) return
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
      setStored(keepSignIn(answer))
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
