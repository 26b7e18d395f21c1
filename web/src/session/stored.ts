import type { Schemas } from '../api/client'
import i18n, { rememberedLanguage } from '../i18n'

// The session as the browser keeps it between reloads: read by the console's provider, written by
// it and by the sign-in page that runs before the console has loaded.

export interface StoredSession { token: string, user: Schemas['LoginUser'], mustChangePassword: boolean }

const STORAGE_KEY = 'console.session'

export function readSession (): StoredSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null
    return stored?.token && stored.user ? stored : null
  } catch {
    return null
  }
}

export function writeSession (next: StoredSession | null): void {
  if (next) localStorage.setItem(STORAGE_KEY, JSON.stringify(next))
  else localStorage.removeItem(STORAGE_KEY)
}

/** the answer of a sign-in kept, and the console turned to the language the user last chose */
export function keepSignIn (answer: Schemas['LoginResponse']): StoredSession {
  const stored = { token: answer.access_token, user: answer.user, mustChangePassword: answer.must_change_password }
  writeSession(stored)
  void i18n.changeLanguage(rememberedLanguage(answer.user.id))
  return stored
}
