// A text field's value as the API takes it: trimmed, and an empty one is no value.

/** for a field the API may leave out */
export const blank = (value?: string | null) => (value?.trim() ? value.trim() : undefined)

/** for a field the API clears with null */
export const orNull = (value?: string | null) => blank(value) ?? null
