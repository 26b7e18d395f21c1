// Kazakhstan's individual identification number (ИИН): YYMMDD, a century/sex digit, 4 serial digits
// and a check digit (DESIGN 5.2).

const FIRST_WEIGHTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
const SECOND_WEIGHTS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]

function checkDigit (digits: number[]): number | undefined {
  const weighted = (weights: number[]) => weights.reduce((sum, w, i) => sum + w * digits[i]!, 0) % 11
  const first = weighted(FIRST_WEIGHTS)
  if (first !== 10) return first
  const second = weighted(SECOND_WEIGHTS)
  return second === 10 ? undefined : second
}

/** The birth date the IIN encodes, or undefined when it encodes none. */
function birthDate (iin: string): Date | undefined {
  const centuryDigit = Number(iin[6])
  if (centuryDigit < 1 || centuryDigit > 6) return undefined
  const century = 1800 + Math.floor((centuryDigit - 1) / 2) * 100
  const year = century + Number(iin.slice(0, 2))
  const month = Number(iin.slice(2, 4))
  const day = Number(iin.slice(4, 6))
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  return date
}

/** Why an IIN is invalid, or undefined when it is valid. */
export function iinProblem (iin: string, today = new Date()): string | undefined {
  if (!/^\d{12}$/.test(iin)) return 'IIN must be 12 digits'
  const born = birthDate(iin)
  if (!born) return 'IIN does not encode a real birth date'
  if (born.getTime() > today.getTime()) return 'IIN encodes a birth date in the future'
  const digits = [...iin].map(Number)
  if (checkDigit(digits) !== digits[11]) return 'IIN check digit is wrong'
  return undefined
}
