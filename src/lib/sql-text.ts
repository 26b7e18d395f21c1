/** `%text%` for ILIKE, with the pattern characters of the text taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** `text%` for LIKE, with the pattern characters of the text taken literally. */
export const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
