// Personal data out of LLM requests: IINs, phone numbers and e-mail addresses become placeholders
// such as [IIN_1] before a request leaves the service, and are put back into the answer.

/** what the screen shows of an IIN: its last 4 digits */
export const maskIin = (iin: string | null): string | null => (iin ? `********${iin.slice(-4)}` : null)

/** what an open read shows of a phone number: the code and the last 2 digits (+7701*****67) */
export function maskPhone (phone: string | null): string | null {
  if (phone === null) return null
  const digits = phone.replace(/\D/g, '')
  if (digits.length < 7) return '*'.repeat(phone.length)
  const head = phone.startsWith('+') ? `+${digits.slice(0, 4)}` : digits.slice(0, 4)
  return `${head}${'*'.repeat(digits.length - 6)}${digits.slice(-2)}`
}

const patterns: { kind: string, re: RegExp, needs?: string }[] = [
  // tried at every letter of a text, this one costs more than all the others: only where an @ is
  { kind: 'EMAIL', re: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu, needs: '@' },
  // any 12-digit run: IIN and BIN look alike, and a mistyped IIN is personal data too
  { kind: 'IIN', re: /(?<!\d)\d{12}(?!\d)/g },
  // Kazakhstan's numbers as people write them: +7 / 8 / 7, then 10 digits with spaces, dashes, brackets
  { kind: 'PHONE', re: /(?<![\d+])(?:\+7|8|7)[\s-]?\(?\d{3}\)?[\s-]?\d{3}[\s-]?\d{2}[\s-]?\d{2}(?!\d)/g },
]

const placeholder = /\[(?:EMAIL|IIN|PHONE)_\d+\]/g
/** the longest tail that may still grow into a placeholder */
const partialPlaceholder = /\[[A-Z]{0,5}(?:_\d{0,4})?$/

export interface Redactor {
  redact: (text: string) => string
  restore: (text: string) => string
  /** restores a stream of deltas; a placeholder split across deltas is held back until complete */
  streamRestorer: () => { push: (delta: string) => string, flush: () => string }
  /** how many distinct values were replaced */
  readonly count: number
}

export function createRedactor (): Redactor {
  const byValue = new Map<string, string>()
  const byPlaceholder = new Map<string, string>()
  const counters: Record<string, number> = {}
  const restore = (text: string) => text.replace(placeholder, (p) => byPlaceholder.get(p) ?? p)
  return {
    redact (text: string) {
      let out = text
      for (const { kind, re, needs } of patterns) {
        if (needs !== undefined && !out.includes(needs)) continue
        out = out.replace(re, (value) => {
          let p = byValue.get(value)
          if (!p) {
            counters[kind] = (counters[kind] ?? 0) + 1
            p = `[${kind}_${counters[kind]}]`
            byValue.set(value, p)
            byPlaceholder.set(p, value)
          }
          return p
        })
      }
      return out
    },
    restore,
    streamRestorer () {
      let held = ''
      return {
        push (delta: string) {
          const text = held + delta
          const tail = partialPlaceholder.exec(text)
          held = tail ? tail[0] : ''
          return restore(tail ? text.slice(0, tail.index) : text)
        },
        flush () { const rest = restore(held); held = ''; return rest },
      }
    },
    get count () { return byValue.size },
  }
}

/** a redactor that changes nothing, for providers trusted with personal data */
export const noRedaction: Redactor = {
  redact: (t) => t,
  restore: (t) => t,
  streamRestorer: () => ({ push: (d) => d, flush: () => '' }),
  count: 0,
}
