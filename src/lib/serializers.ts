// The response serializers (fast-json-stringify), built once per schema and process. Fastify's own
// compiler hands every build all the shared schemas, each checked against the meta-schema and
// indexed again for every route and status (most of a start's time, seconds); here a build gets only
// the shared schemas its schema names, however deep, and a serializer built for the same schema on
// the same shared schemas (another instance of the application in this process) is used again.
import fastJsonStringify from 'fast-json-stringify'

type Schema = Record<string, unknown>
type Serializer = (doc: unknown) => string

/**
 * The named schemas `schema` refers to (`$ref`), and the ones they refer to in turn, however deep:
 * `nameOf` reads a schema's name out of a `$ref` (undefined: not one of `schemas`).
 */
export function referencedSchemas<S> (schema: unknown, schemas: Record<string, S>, nameOf: (ref: string) => string | undefined): Record<string, S> {
  const found: Record<string, S> = {}
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) { for (const v of value) visit(v); return }
    if (value === null || typeof value !== 'object') return
    for (const [key, v] of Object.entries(value)) {
      const name = key === '$ref' && typeof v === 'string' ? nameOf(v) : undefined
      if (name !== undefined && schemas[name] !== undefined && found[name] === undefined) {
        found[name] = schemas[name]
        visit(schemas[name])
      } else visit(v)
    }
  }
  visit(schema)
  return found
}

/** Fastify's shared schemas are named by their $id: a `$ref` is `Name#` or `Name#/properties/x` */
const sharedName = (ref: string) => ref.split('#')[0] || undefined

/** serializers built in this process: by the schema's text, with the shared schemas they were built on */
const built = new Map<string, { on: Record<string, Schema>, options: string, serialize: Serializer }[]>()

const sameSchemas = (a: Record<string, Schema>, b: Record<string, Schema>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([id, s]) => b[id] === s)

/** Fastify's `schemaController.compilersFactory.buildSerializer` */
export function buildSerializer (externalSchemas: unknown, serializerOpts: unknown) {
  const external = (externalSchemas ?? {}) as Record<string, Schema>
  const options = JSON.stringify(serializerOpts ?? {})
  return ({ schema: routeSchema }: { schema?: unknown }): Serializer => {
    const schema = routeSchema as Schema
    const key = JSON.stringify(schema)
    const on = referencedSchemas(schema, external, sharedName)
    if (typeof schema.$id === 'string') delete on[schema.$id] // the root is not its own external schema
    const same = built.get(key)?.find((b) => b.options === options && sameSchemas(b.on, on))
    if (same) return same.serialize
    // the schemas are TypeBox's JSON Schema: fast-json-stringify's own types name only a subset of it
    const serialize = (fastJsonStringify as unknown as (schema: Schema, options: object) => Serializer)(schema, { ...(serializerOpts as object), schema: on })
    built.set(key, [...built.get(key) ?? [], { on, options, serialize }])
    return serialize
  }
}
