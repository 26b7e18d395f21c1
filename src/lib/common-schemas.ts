import { Type, type Static, type TSchema } from 'typebox'

/** A trimmed, non-empty name (DESIGN 3.12). */
export const Name = (maxLength = 255) => Type.String({ minLength: 1, maxLength, 'x-trim': true })
/** A trimmed free text that may be empty. */
export const Text = (maxLength = 10000) => Type.String({ maxLength, 'x-trim': true })

/** One of a fixed list of strings (a status, a role): one `enum`, so a bad value gives one clear error. */
export const OneOf = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options })

/** `T | null` as one JSON-schema type list, so a bad value gives one clear error rather than an anyOf. */
export const Nullable = <T extends TSchema>(schema: T) => {
  const type = (schema as { type?: string }).type
  if (type === undefined) throw new Error('Nullable() needs a schema with a single type')
  const values = (schema as { enum?: unknown[] }).enum
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) })
}

/** PostgreSQL's `integer` (int4): every id, count and number column of the service holds this range */
export const INT4_MAX = 2_147_483_647
/** a stored row's id (serial) */
export const Id = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: INT4_MAX, ...options })
/** `skip` of a list */
export const Offset = () => Type.Integer({ minimum: 0, maximum: INT4_MAX, default: 0 })

export const Timestamp = () => Type.String({ format: 'date-time' })
/** a calendar day, `YYYY-MM-DD` (the centre's days in reports) */
export const LocalDay = (description: string) => Type.String({ format: 'date', description })

/** an export's query: the file's format and the language of its headings and words */
export const ExportFields = (singleSheet = 'one sheet') => ({
  format: OneOf(['csv', 'xlsx'] as const, { default: 'xlsx', description: `csv: UTF-8 with a byte order mark, comma-separated; xlsx: ${singleSheet}` }),
  lang: OneOf(['ru', 'kk'] as const, { default: 'ru', description: 'the language of the column names and the words in cells' }),
})

export const MessageResponse = Type.Object({ message: Type.String() }, { $id: 'MessageResponse', additionalProperties: true })

export const ErrorResponse = Type.Object({ detail: Type.Unknown(), code: Type.Optional(Type.String()) }, { $id: 'ErrorResponse' })

/** FastAPI's 422 body, documented on every route that validates input. */
export const ValidationError = Type.Object({
  type: Type.String(),
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  msg: Type.String(),
  input: Type.Optional(Type.Unknown()),
  ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
}, { $id: 'ValidationError' })
export const HTTPValidationError = Type.Object({
  detail: Type.Array(Type.Unsafe({ $ref: 'ValidationError#' })),
}, { $id: 'HTTPValidationError' })

export const IncludeInactiveQuery = Type.Object({
  include_inactive: Type.Boolean({ default: false }),
})

export const Pagination = (defaultLimit: number) => ({
  skip: Offset(),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: defaultLimit }),
})

export const commonSchemas = [MessageResponse, ErrorResponse, ValidationError, HTTPValidationError]
