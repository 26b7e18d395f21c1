// fast-check arbitraries made from the committed OpenAPI document: values that satisfy a schema,
// values that break it at its edges, and values no schema expects (hostile strings, numbers past
// every column's range, deep nesting).
import fc from 'fast-check'

export type JsonSchema = Record<string, any>
export type Components = Record<string, JsonSchema>

/** strings that have broken services before: NUL (PostgreSQL text refuses it), lone surrogates, escapes, huge */
export const hostileStrings: string[] = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\uffff', '\u202e', '𝕏😀', '\r\n', '%00', '%', '..', '../..',
  '/', '\\', "'", '"', "' or 1=1 --", '$1', '${x}', '{{x}}', '<script>', 'null', 'true', '-0', '1e309', 'NaN',
  'Infinity', '0x10', '٣', '२', '+7 (701) 234-56-78', '2026-02-30T25:61:00Z', '9999-12-31T23:59:59Z',
  'a'.repeat(256), 'я'.repeat(10001), 'x'.repeat(70_000),
]

/** numbers at and past the limits of int4, int8 and float8 (as JSON can carry them) */
export const edgeNumbers: number[] = [
  0, -1, 1, 2147483647, 2147483648, -2147483648, -2147483649, 4294967296, 9007199254740991, 9007199254740993,
  -9007199254740993, 9223372036854775807, 1e19, 1e308, -1e308, 5e-324, 0.5, -0.5, 1.7976931348623157e308,
]

/** path and query values as text: edges of numbers and of URL encoding */
export const edgeTexts: string[] = [
  '0', '1', '2', '3', '-1', '2147483647', '2147483648', '-2147483649', '9223372036854775808', '99999999999999999999999',
  '1e3', '1.5', '0x1F', ' 1', '1 ', '%00', '%ZZ', '%C0%AF', '%2F', '%2e%2e', '..', 'true', 'false', 'null', '[]', '{}',
  'a'.repeat(300), encodeURIComponent('я\u0000'), '%ED%A0%80', '%F0%9F%98%80',
]

const hostileString = fc.oneof(fc.constantFrom(...hostileStrings), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }))
const edgeNumber = fc.oneof(fc.constantFrom(...edgeNumbers), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())

/** any JSON value, nested deep now and then */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), edgeNumber, hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 })
  ),
})).value

type NestingShape = 'arrays' | 'objects' | 'mixed' | 'empty'

/**
 * A value nested `depth` levels deep, built only when serialised (fast-check prints it short):
 * arrays, objects, arrays of objects of arrays (each level costs a walker two frames), or empty
 * containers at the bottom. Past MAX_JSON_DEPTH the service refuses it as undecodable JSON; below,
 * it must walk it.
 */
class Nested {
  constructor (readonly depth: number, readonly shape: NestingShape) {}
  text (): string {
    const d = this.depth
    switch (this.shape) {
      case 'arrays': return `${'['.repeat(d)}1${']'.repeat(d)}`
      case 'objects': return `${'{"a":'.repeat(d)}1${'}'.repeat(d)}`
      case 'mixed': return `${'[{"a":'.repeat(Math.ceil(d / 2))}"x"${'}]'.repeat(Math.ceil(d / 2))}`
      case 'empty': return `${'[{"a":'.repeat(Math.ceil(d / 2))}{}${'}]'.repeat(Math.ceil(d / 2))}`
    }
  }

  [fc.toStringMethod] (): string { return `nested(${this.depth}, ${this.shape})` }
}

// JSON.stringify writes the marker's control character escaped: the text holds a backslash and u0001
const placeholder = (i: number) => `"\\u0001nested${i}\\u0001"`

/** JSON text of a generated value; nested values are written out as text (no recursion, however deep) */
export function toJsonText (value: unknown): string {
  const nested: Nested[] = []
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof Nested ? `\u0001nested${nested.push(v) - 1}\u0001` : v))
  return nested.reduce((out, n, i) => out.replace(placeholder(i), n.text()), text)
}

/** depths around the service's limit and where stacks overflow, and anything between */
const nestingDepth = fc.oneof(fc.constantFrom(63, 64, 65, 66, 1000, 2500, 3000, 5000, 20_000), fc.integer({ min: 2, max: 20_000 }))
export const deeplyNested = fc.tuple(nestingDepth, fc.constantFrom<NestingShape>('arrays', 'objects', 'mixed', 'empty')).map(([depth, shape]) => new Nested(depth, shape))

/** a deeply nested value where it may hide: as it is, or as an array item or a field of an object */
const hiddenNested = fc.oneof(
  deeplyNested,
  deeplyNested.map((n) => [n]),
  fc.tuple(fc.string({ maxLength: 8 }), deeplyNested).map(([key, n]) => ({ [key]: n }))
)

export function resolve (schema: JsonSchema, components: Components): JsonSchema {
  let s = schema
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = s.$ref.split('/').pop()!.replace(/#$/, '')
    s = components[name] ?? {}
  }
  return s
}

function types (s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type
  if (typeof s.type === 'string') return [s.type]
  if (s.properties) return ['object']
  return []
}

/** a value the schema accepts (close enough: patterns and formats are honoured where fast-check can) */
export function validValue (schema: JsonSchema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components)
  if (s.const !== undefined) return fc.constant(s.const)
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum)
  const branches: JsonSchema[] | undefined = s.anyOf ?? s.oneOf
  if (branches) return fc.oneof(...branches.map((b) => validValue(b, components, depth + 1)))
  const ts = types(s)
  if (ts.length === 0) return depth > 3 ? fc.constant(null) : fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean())
  return fc.oneof(...ts.map((t) => validOfType(t, s, components, depth)))
}

function validString (s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === 'email') return fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 254))
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())
  if (s.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
  if (s.format === 'uuid') return fc.uuid()
  const minLength = s.minLength ?? 0
  const maxLength = Math.min(s.maxLength ?? 40, minLength + 40)
  if (typeof s.pattern === 'string') {
    return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity))
  }
  return fc.string({ minLength, maxLength, unit: fc.constantFrom('a', 'я', 'ә', 'Z', '1', ' ', '-', '.') })
    .filter((v) => !s['x-trim'] || v.trim().length >= minLength)
}

function validOfType (t: string, s: JsonSchema, components: Components, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'null': return fc.constant(null)
    case 'boolean': return fc.boolean()
    case 'integer': return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1_000_000 })
    case 'number': return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true })
    case 'string': return validString(s)
    case 'array': {
      if (depth > 4) return fc.constant([])
      return fc.array(validValue(s.items ?? {}, components, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, 5) })
    }
    case 'object': {
      const properties: Record<string, JsonSchema> = s.properties ?? {}
      const required = new Set<string>(s.required ?? [])
      const record: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [k, v] of Object.entries(properties)) record[k] = depth > 4 ? fc.constant(null) : validValue(v, components, depth + 1)
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) })
    }
    default: return fc.constant(null)
  }
}

/** a value at or past the edges of the schema, or of another type altogether */
export function edgeValue (schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const s = resolve(schema, components)
  const ts = types(s)
  // nesting in any field, whatever its type: a string field's 422 echoes it too
  const near: fc.Arbitrary<unknown>[] = [anyJson, hostileString, edgeNumber, hiddenNested]
  if (ts.includes('string')) {
    const max = s.maxLength ?? 255
    near.push(fc.constantFrom('a'.repeat(max), 'я'.repeat(max + 1), ` ${'b'.repeat(Math.max(0, max - 1))} `, '\u0000'.repeat(Math.min(max, 3))))
  }
  if (ts.includes('integer') || ts.includes('number')) {
    const edges = [s.minimum, s.maximum].filter((v): v is number => typeof v === 'number').flatMap((v) => [v - 1, v, v + 1, v + 0.5])
    if (edges.length > 0) near.push(fc.constantFrom(...edges))
  }
  if (ts.includes('array')) near.push(fc.array(anyJson, { minLength: 0, maxLength: 300 }), fc.array(hiddenNested, { minLength: 1, maxLength: 3 }))
  return fc.oneof(...near)
}

/** a request body for the schema: valid, one field broken, fields missing, extras, or anything at all */
export function bodyValue (schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const s = resolve(schema, components)
  const valid = validValue(s, components)
  const properties = Object.keys(s.properties ?? {})
  if (properties.length === 0) return fc.oneof(valid, anyJson, hiddenNested)
  const oneFieldBroken = fc.tuple(valid, fc.constantFrom(...properties)).chain(([v, key]) =>
    edgeValue((s.properties as Components)[key]!, components).map((bad) => ({ ...(v as object), [key]: bad })))
  const fieldsDropped = fc.tuple(valid, fc.subarray(properties)).map(([v, drop]) => {
    const copy = { ...(v as Record<string, unknown>) }
    for (const k of drop) delete copy[k]
    return copy
  })
  const extras = fc.tuple(valid, fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(anyJson, hiddenNested), { maxKeys: 3 })).map(([v, extra]) => ({ ...extra, ...(v as object) }))
  return fc.oneof(
    { arbitrary: valid, weight: 5 },
    { arbitrary: oneFieldBroken, weight: 4 },
    { arbitrary: fieldsDropped, weight: 1 },
    { arbitrary: extras, weight: 1 },
    { arbitrary: anyJson, weight: 1 },
    { arbitrary: hiddenNested, weight: 1 }
  )
}

/** URL-encoded; a lone surrogate (which encodeURIComponent refuses) goes as the bytes of one */
function urlEncode (v: string): string {
  try { return encodeURIComponent(v) } catch { return `${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80` }
}

/** a path or query value as text: valid, at the edges, or hostile */
export function textValue (schema: JsonSchema, components: Components): fc.Arbitrary<string> {
  const s = resolve(schema, components)
  const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))
  return fc.oneof(
    { arbitrary: validValue(s, components).map((v) => urlEncode(asText(v))), weight: 6 },
    { arbitrary: fc.constantFrom(...edgeTexts), weight: 3 },
    { arbitrary: edgeValue(s, components).map((v) => urlEncode(asText(v))), weight: 2 },
    { arbitrary: hostileString.map(urlEncode), weight: 1 }
  )
}
