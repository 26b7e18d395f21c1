import { Ajv, type AnySchema, type ErrorObject, type Options } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import type { FieldError } from './errors.js'

const addFormats = addFormatsModule.default

/**
 * `x-trim: true` on a string schema trims the value in place before the other string keywords
 * run, so "  " fails minLength 1 and "  Name " is stored as "Name".
 */
function addTrimKeyword (ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'x-trim',
    type: 'string',
    modifying: true,
    schemaType: 'boolean',
    before: 'minLength',
    validate: (enabled: boolean, data: string, _parent: unknown, ctx?: { parentData: Record<string | number, unknown>, parentDataProperty: string | number }) => {
      if (enabled && ctx?.parentData !== undefined) ctx.parentData[ctx.parentDataProperty] = data.trim()
      return true
    },
  } as Parameters<Ajv['addKeyword']>[0])
}

export function makeAjv (options: Options): Ajv {
  // allErrors: every failing field is reported at once, as FastAPI does; verbose: errors carry the input.
  const ajv = addFormats(new Ajv({ useDefaults: true, allErrors: true, verbose: true, strict: false, ...options }))
  addTrimKeyword(ajv)
  return ajv
}

/**
 * NUL (which PostgreSQL text and jsonb refuse) or an unpaired surrogate (which is not Unicode text).
 * Both checks are native scans: a regular expression took 30 µs over a call's 9,000-character transcript.
 */
const unstorable = (text: string): boolean => text.includes('\u0000') || !(text as string & { isWellFormed: () => boolean }).isWellFormed()

/** JSON pointer escaping of one path segment */
const pointer = (key: string | number) => `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`

/**
 * Every string of a request, keys included, that no PostgreSQL column could store, as Ajv errors.
 * Walked with an explicit stack: a body may be nested thousands of levels deep.
 */
export function unstorableText (data: unknown): ErrorObject[] {
  const errors: ErrorObject[] = []
  const stack: [unknown, string][] = [[data, '']]
  while (stack.length > 0 && errors.length < 20) {
    const [value, path] = stack.pop()!
    if (typeof value === 'string') {
      if (unstorable(value)) errors.push({ keyword: 'x-text', instancePath: path, schemaPath: '#/x-text', params: {}, data: value })
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], path + pointer(i)])
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (unstorable(key)) errors.push({ keyword: 'x-text', instancePath: path + pointer(key), schemaPath: '#/x-text', params: {}, data: key })
        stack.push([item, path + pointer(key)])
      }
    }
  }
  return errors
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null }

/** Ajv's verdict, then the text check: a value Ajv accepts may still hold what the database refuses. */
function withTextCheck (validate: Validate): Validate {
  const checked: Validate = (data) => {
    const valid = validate(data)
    const bad = unstorableText(data)
    checked.errors = valid ? (bad.length > 0 ? bad : null) : [...(validate.errors ?? []), ...bad]
    return valid && bad.length === 0
  }
  return checked
}

/** JSON bodies are validated strictly (no coercion, unknown keys dropped); path and query values are coerced. */
export function installValidators (app: FastifyInstance, shared: AnySchema[]): void {
  const body = makeAjv({ coerceTypes: false, removeAdditional: true })
  const rest = makeAjv({ coerceTypes: 'array', removeAdditional: false })
  for (const s of shared) { body.addSchema(s); rest.addSchema(s) }
  app.setValidatorCompiler(({ schema, httpPart }) => withTextCheck((httpPart === 'body' ? body : rest).compile(schema as AnySchema)))
}

const locPart: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' }

const parsedTypeErrors: Record<string, [string, string]> = {
  integer: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  number: ['float_parsing', 'Input should be a valid number, unable to parse string as a number'],
  boolean: ['bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
}

const bodyTypeErrors: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  integer: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  null: ['none_required', 'Input should be None'],
}

function typeError (expected: string, fromText: boolean, atRoot: boolean): [string, string] {
  const first = expected.split(',').find((t) => t !== 'null') ?? expected
  if (atRoot && first === 'object') return ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from']
  return (fromText ? parsedTypeErrors[first] : undefined) ?? bodyTypeErrors[first] ?? ['type_error', `Input should be of type ${expected}`]
}

function describe (e: ErrorObject, fromText: boolean): Pick<FieldError, 'type' | 'msg' | 'ctx'> {
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required': return { type: 'missing', msg: 'Field required' }
    case 'type': {
      const [type, msg] = typeError(String(p.type), fromText, e.instancePath === '')
      return { type, msg }
    }
    case 'minLength': return { type: 'string_too_short', msg: `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`, ctx: { min_length: p.limit } }
    case 'maxLength': return { type: 'string_too_long', msg: `String should have at most ${p.limit} character${p.limit === 1 ? '' : 's'}`, ctx: { max_length: p.limit } }
    case 'pattern': return { type: 'string_pattern_mismatch', msg: `String should match pattern '${p.pattern}'`, ctx: { pattern: p.pattern } }
    case 'minimum': return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${p.limit}`, ctx: { ge: p.limit } }
    case 'maximum': return { type: 'less_than_equal', msg: `Input should be less than or equal to ${p.limit}`, ctx: { le: p.limit } }
    case 'exclusiveMinimum': return { type: 'greater_than', msg: `Input should be greater than ${p.limit}`, ctx: { gt: p.limit } }
    case 'exclusiveMaximum': return { type: 'less_than', msg: `Input should be less than ${p.limit}`, ctx: { lt: p.limit } }
    case 'minItems': return { type: 'too_short', msg: `List should have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`, ctx: { min_length: p.limit } }
    case 'maxItems': return { type: 'too_long', msg: `List should have at most ${p.limit} item${p.limit === 1 ? '' : 's'}`, ctx: { max_length: p.limit } }
    case 'uniqueItems': return { type: 'value_error', msg: 'List items should be unique' }
    case 'enum': {
      const values = (p.allowedValues as unknown[]).map((v) => `'${String(v)}'`)
      const msg = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values[0]
      return { type: 'enum', msg: `Input should be ${msg}`, ctx: { expected: values.join(', ') } }
    }
    case 'const': {
      // a union of literals fails once per branch: name them all, as pydantic does
      const values = ((p.allowedValues as unknown[] | undefined) ?? [p.allowedValue]).map((v) => `'${String(v)}'`)
      const expected = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : values[0]
      return { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } }
    }
    case 'format': return { type: 'value_error', msg: `Value is not a valid ${String(p.format)}` }
    case 'x-text': return { type: 'string_unicode', msg: 'Input should be a valid string: text may not contain NUL (\\u0000) or unpaired surrogates' }
    case 'not': return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted' }
    case 'minProperties': return { type: 'too_short', msg: `Object should have at least ${p.limit} field${p.limit === 1 ? '' : 's'}` }
    default: return { type: 'value_error', msg: e.message ?? 'Invalid value' }
  }
}

/** the value at a path of keys and indexes, undefined when there is none */
function valueAt (data: unknown, path: (string | number)[]): unknown {
  let value = data
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string | number, unknown>)[key]
  }
  return value
}

/**
 * Ajv errors of one request part as FastAPI's 422 `detail` entries. `sent`: the part as the client
 * sent it, for the inputs echoed (Ajv's carry the defaults it filled in and the strings it trimmed).
 */
export function toFieldErrors (errors: ErrorObject[], context: string | undefined, sent?: unknown): FieldError[] {
  const part = locPart[context ?? 'body'] ?? 'body'
  const fromText = part !== 'body'
  const seen = new Set<string>()
  const out: FieldError[] = []
  const literals = new Map<string, unknown[]>()
  for (const e of errors) {
    if (e.keyword === 'const') literals.set(e.instancePath, [...(literals.get(e.instancePath) ?? []), (e.params as { allowedValue: unknown }).allowedValue])
  }
  for (const e of errors) {
    if (e.keyword === 'const') e.params = { ...e.params, allowedValues: literals.get(e.instancePath) }
    // anyOf/oneOf summaries repeat what their branches already said
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue
    const path = e.instancePath.split('/').filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')))
    const missing = e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : undefined
    const loc = [part, ...path, ...(missing === undefined ? [] : [missing])]
    const key = loc.join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    // no body at all where one is required: FastAPI says the body is missing
    const described = e.data == null && e.keyword === 'type' && e.instancePath === '' ? { type: 'missing', msg: 'Field required' } : describe(e, fromText)
    const input = (sent === undefined ? undefined : valueAt(sent, path)) ?? e.data
    out.push({ type: described.type, loc, msg: described.msg, input: input ?? null, ...('ctx' in described && described.ctx ? { ctx: described.ctx } : {}) })
  }
  return out
}
