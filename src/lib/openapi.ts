import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { Type, type Static, type TSchema } from 'typebox'

/** A reference to a shared schema by its `$id` (the interface's component name). */
export const ref = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T>>({ $ref: `${(schema as { $id?: string }).$id}#` })

export const bearer = [{ bearerAuth: [] }]

export async function registerOpenApi (app: FastifyInstance, version: string): Promise<void> {
  // as in FastAPI's document: every operation that validates input lists its 422
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: unknown, params?: unknown, querystring?: unknown, response?: Record<string, unknown> } | undefined
    if (schema && (schema.body || schema.params || schema.querystring)) {
      schema.response = { ...schema.response, 422: { $ref: 'HTTPValidationError#', description: 'Validation Error' } }
    }
  })
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Appeals administration service',
        description: 'Citizens\' appeals call-centre back-end: reference data, organizations, Asterisk telephony per tenant, call events and an LLM gateway.',
        version,
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // component schemas are named by their $id instead of def-0, def-1...
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
    transformObject: (document) => optionalDefaults(('openapiObject' in document ? document.openapiObject : document.swaggerObject) as OpenApiDocument) as object,
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } })
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}

interface OpenApiDocument { paths?: Record<string, Record<string, { parameters?: { in: string, required?: boolean, schema?: { default?: unknown } }[] }>> }

/**
 * As in FastAPI's document, a query parameter with a default is not required: the client may leave
 * it out (TypeBox lists it as required because the validated request always has it).
 */
function optionalDefaults<T extends OpenApiDocument> (doc: T): T {
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const p of operation.parameters ?? []) if (p.in === 'query' && p.schema?.default !== undefined) p.required = false
    }
  }
  return doc
}
