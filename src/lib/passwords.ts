import { hash, verify } from '@node-rs/argon2'
import type { FieldError } from './errors.js'

// OWASP's argon2id profile (19 MiB, 2 passes, 1 lane): about 15 ms per verification on the CI machine.
const ARGON2_ID = 2 // Algorithm.Argon2id, a const enum that isolated modules cannot import
const ARGON2 = { algorithm: ARGON2_ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const PASSWORD_MIN_LENGTH = 10
export const PASSWORD_MAX_LENGTH = 128

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2)

// verified when the account does not exist, so that a wrong e-mail costs as long as a wrong password
const dummyHash = hash('not-a-password-of-anyone', ARGON2)

/** Verifies a password; with no stored hash it spends the same time and answers false. */
export async function verifyPassword (storedHash: string | null | undefined, password: string): Promise<boolean> {
  try {
    if (!storedHash) {
      await verify(await dummyHash, password)
      return false
    }
    return await verify(storedHash, password)
  } catch {
    return false
  }
}

/** The rules a new password must meet; the 422 entry for `loc` when it does not. */
export function passwordProblem (password: string, loc: (string | number)[], context: { email: string, current?: string }): FieldError | undefined {
  const problem = (msg: string): FieldError => ({ type: 'value_error', loc, msg, input: '[redacted]' })
  if (password.length < PASSWORD_MIN_LENGTH) return problem(`Password should have at least ${PASSWORD_MIN_LENGTH} characters`)
  if (password.length > PASSWORD_MAX_LENGTH) return problem(`Password should have at most ${PASSWORD_MAX_LENGTH} characters`)
  if (password.trim().toLowerCase() === context.email.toLowerCase()) return problem('Password must not be the e-mail address')
  if (context.current !== undefined && password === context.current) return problem('New password must differ from the current one')
  return undefined
}
