/**
 * Kazakhstan numbers to E.164 `+7XXXXXXXXXX`. Accepts `8...`, `7...`, `+7...` and the bare 10-digit
 * national number, with spaces, dashes, dots and brackets. Undefined when it is not such a number.
 */
export function normalizeKzPhone (input: string): string | undefined {
  const trimmed = input.trim()
  if (!/^\+?[\d\s\-().]+$/.test(trimmed)) return undefined
  const digits = trimmed.replace(/\D/g, '')
  const plus = trimmed.startsWith('+')
  let national: string | undefined
  if (digits.length === 11 && digits[0] === '7') national = digits.slice(1)
  else if (digits.length === 11 && digits[0] === '8' && !plus) national = digits.slice(1)
  else if (digits.length === 10 && !plus && digits[0] !== '8') national = digits
  if (national === undefined || !/^[3-9]/.test(national)) return undefined
  return `+7${national}`
}

/**
 * A number as dialled in an area (`areaCode`, and the length of its local numbers) to E.164: any
 * national form `normalizeKzPhone` takes, or a local number of the area. Undefined for anything else.
 */
export function e164InArea (dialled: string, area: { areaCode: string | null, localDigits: number | null }): string | undefined {
  const national = normalizeKzPhone(dialled)
  if (national) return national
  const digits = dialled.replace(/[\s\-().]/g, '')
  if (area.areaCode && area.localDigits && /^[0-9]+$/.test(digits) && digits.length === area.localDigits) return `+7${area.areaCode}${digits}`
  return undefined
}
