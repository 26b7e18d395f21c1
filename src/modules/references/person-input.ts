import { RequestValidationError, type FieldError } from '../../lib/errors.js'
import { iinProblem } from '../../lib/iin.js'
import { normalizeKzPhone } from '../../lib/phone.js'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export interface PersonContact { iin?: string | null, phone?: string | null, email?: string | null }

/**
 * A person's IIN, phone and e-mail checked and normalised, every problem reported at once on the
 * field it concerns (`at` is where the object sits in the request: ['body'], ['body', 'citizen']).
 */
export function cleanPersonContact<T extends PersonContact> (input: T, today: Date, at: (string | number)[]): T {
  const out = { ...input }
  const problems: FieldError[] = []
  if (typeof out.iin === 'string') {
    out.iin = out.iin.replace(/\s/g, '') || null
    const problem = out.iin === null ? undefined : iinProblem(out.iin, today)
    if (problem) problems.push({ type: 'value_error', loc: [...at, 'iin'], msg: problem, input: input.iin })
  }
  if (typeof out.phone === 'string') {
    const phone = out.phone.trim() === '' ? null : normalizeKzPhone(out.phone)
    if (phone === undefined) problems.push({ type: 'value_error', loc: [...at, 'phone'], msg: 'Value is not a valid Kazakhstan phone number', input: input.phone })
    else out.phone = phone
  }
  if (typeof out.email === 'string') {
    out.email = out.email.toLowerCase() || null
    if (out.email !== null && !EMAIL.test(out.email)) problems.push({ type: 'value_error', loc: [...at, 'email'], msg: 'Value is not a valid email address', input: input.email })
  }
  if (problems.length > 0) throw new RequestValidationError(problems)
  return out
}
