import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static, type TSchema } from 'typebox'
import { markRoutes, type Principal } from '../../lib/auth.js'
import { bearer, ref } from '../../lib/openapi.js'
import {
  ItemParams, LineCreate, LineResponse, LineUpdate, MenuCreate, MenuResponse, MenuUpdate, PromptCreate, PromptResponse, QueueCreate, QueueResponse, QueueUpdate,
  RecordingParams, ScheduleCreate, ScheduleResponse, ScheduleUpdate, TenantParams,
} from './schemas.js'
import type { CallRoutingService } from './service.js'
import { ACCEPTED_AUDIO, MAX_UPLOAD_BYTES } from './prompt-audio.js'

const security = bearer
const deleted = { 204: Type.Null({ description: 'deleted' }) }

/** what the service does for a resource of the routing */
interface Resource<C, U> {
  list: (actor: Principal, tenantId: number) => Promise<unknown[]>
  create: (actor: Principal, tenantId: number, input: C) => Promise<unknown>
  update: (actor: Principal, tenantId: number, id: number, input: U) => Promise<unknown>
  remove: (actor: Principal, tenantId: number, id: number) => Promise<void>
}
/** the types a browser or a tool gives a sound file (what it is, is read from its bytes) */
const AUDIO_TYPES = /^(audio\/|video\/(mp4|webm|ogg)|application\/(ogg|octet-stream))/
/** the types the OpenAPI document names */
const NAMED_AUDIO_TYPES = ['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/flac', 'audio/webm', 'application/octet-stream']

/** An organization's call routing, under /api/organizations/{tenant_id}/ (all Bearer: an admin or the organization's manager). */
const routes: FastifyPluginAsyncTypebox<{ service: CallRoutingService }> = async (app, { service }) => {
  markRoutes(app, { user: ['admin', 'manager'], organization: 'tenant_id' })
  app.addContentTypeParser(AUDIO_TYPES, { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) => { done(null, body) })

  const { queues, prompts } = service

  /** a resource's list, creation (201), change and deletion (204) under `/<path>` */
  function crud<C extends TSchema, U extends TSchema> (path: string, tag: string, ops: Resource<Static<C>, Static<U>>, schemas: { create: C, update: U, response: TSchema }, words: Record<'list' | 'create' | 'update' | 'remove', string>) {
    const tags = [tag]
    const name = path.replace(/s$/, '').replace(/^./, (c) => c.toUpperCase())
    app.get(`/${path}`, { schema: { tags, security, operationId: `list${name}s`, summary: words.list, params: TenantParams, response: { 200: Type.Array(ref(schemas.response)) } } },
      async (req) => ops.list(req.principal!, req.params.tenant_id))
    app.post(`/${path}`, { schema: { tags, security, operationId: `create${name}`, summary: words.create, params: TenantParams, body: ref(schemas.create), response: { 201: ref(schemas.response) } } },
      async (req, reply) => reply.code(201).send(await ops.create(req.principal!, req.params.tenant_id, req.body as Static<C>)))
    app.put(`/${path}/:item_id`, { schema: { tags, security, operationId: `update${name}`, summary: words.update, params: ItemParams, body: ref(schemas.update), response: { 200: ref(schemas.response) } } },
      async (req) => ops.update(req.principal!, req.params.tenant_id, req.params.item_id, req.body as Static<U>))
    app.delete(`/${path}/:item_id`, { schema: { tags, security, operationId: `delete${name}`, summary: words.remove, params: ItemParams, response: deleted } },
      async (req, reply) => { await ops.remove(req.principal!, req.params.tenant_id, req.params.item_id); return reply.code(204).send(null) })
  }

  crud('queues', 'queues', queues, { create: QueueCreate, update: QueueUpdate, response: QueueResponse }, {
    list: 'The organization\'s queues, its default queue first',
    create: 'Create a queue (409 beyond the organization\'s max_queues)',
    update: 'Change a queue (partial; `members` replaces the list)',
    remove: 'Delete a queue (409 while a line, a menu or a queue sends calls to it, and for the default queue)',
  })
  app.get('/queues/:item_id', { schema: { tags: ['queues'], security, operationId: 'getQueue', summary: 'Get a queue', params: ItemParams, response: { 200: ref(QueueResponse) } } },
    async (req) => queues.get(req.principal!, req.params.tenant_id, req.params.item_id))
  crud('schedules', 'schedules', service.schedules, { create: ScheduleCreate, update: ScheduleUpdate, response: ScheduleResponse }, {
    list: 'The organization\'s schedules',
    create: 'Create a schedule: the centre\'s working calendar, 24/7, or weekly hours',
    update: 'Change a schedule (partial; `hours` replaces the list)',
    remove: 'Delete a schedule (409 while a line keeps it)',
  })
  crud('menus', 'menus', service.menus, { create: MenuCreate, update: MenuUpdate, response: MenuResponse }, {
    list: 'The organization\'s voice menus',
    create: 'Create a voice menu: a prompt, digits to destinations (a digit may set the call\'s language), a timeout and an invalid choice',
    update: 'Change a menu (partial; `options` replaces the list)',
    remove: 'Delete a menu (409 while something sends calls to it)',
  })
  crud('lines', 'inbound lines', service.lines, { create: LineCreate, update: LineUpdate, response: LineResponse }, {
    list: 'The numbers the organization answers',
    create: 'Take a number (409 when any organization has it)',
    update: 'Change a line (partial)',
    remove: 'Give a number up',
  })

  const tags = ['prompts']
  app.get('/prompts', { schema: { tags, security, operationId: 'listPrompts', summary: 'The organization\'s recorded prompts, with their recordings by language', params: TenantParams, response: { 200: Type.Array(ref(PromptResponse)) } } },
    async (req) => prompts.list(req.principal!, req.params.tenant_id))
  app.post('/prompts', { schema: { tags, security, operationId: 'createPrompt', summary: 'Create a prompt; its recordings are uploaded per language', params: TenantParams, body: ref(PromptCreate), response: { 201: ref(PromptResponse) } } },
    async (req, reply) => reply.code(201).send(await prompts.create(req.principal!, req.params.tenant_id, req.body.name)))
  app.put('/prompts/:item_id', { schema: { tags, security, operationId: 'renamePrompt', summary: 'Rename a prompt', params: ItemParams, body: ref(PromptCreate), response: { 200: ref(PromptResponse) } } },
    async (req) => prompts.rename(req.principal!, req.params.tenant_id, req.params.item_id, req.body.name))
  app.delete('/prompts/:item_id', { schema: { tags, security, operationId: 'deletePrompt', summary: 'Delete a prompt and its recordings (409 while a menu, a queue or a line plays it)', params: ItemParams, response: deleted } },
    async (req, reply) => { await prompts.remove(req.principal!, req.params.tenant_id, req.params.item_id); return reply.code(204).send(null) })
  app.put('/prompts/:item_id/recordings/:language', {
    schema: {
      tags, security, operationId: 'uploadPromptRecording', params: RecordingParams, response: { 200: ref(PromptResponse) },
      summary: `Upload the prompt's recording in a language: the file itself as the body (Content-Type audio/*), ${ACCEPTED_AUDIO}, at most ${MAX_UPLOAD_BYTES} bytes; it is kept as 16-bit mono PCM at 16 kHz (8 kHz from a source of less), its silence trimmed and its level set`,
      // the body is the file: read by its own bytes (convertPrompt), not by a JSON schema
      consumes: NAMED_AUDIO_TYPES, body: Type.Unknown({ description: 'the sound file', format: 'binary' }),
    },
  }, async (req) => prompts.upload(req.principal!, req.params.tenant_id, req.params.item_id, req.params.language, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)))
  app.get('/prompts/:item_id/recordings/:language', {
    schema: { tags, security, operationId: 'getPromptRecording', summary: 'The recording as Asterisk plays it (audio/wav), to play it back', params: RecordingParams, produces: ['audio/wav'], response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
  }, async (req, reply) => {
    const recording = await prompts.recording(req.principal!, req.params.tenant_id, req.params.item_id, req.params.language)
    return reply.type('audio/wav').header('cache-control', 'private, no-cache').send(recording.wav)
  })
  app.delete('/prompts/:item_id/recordings/:language', { schema: { tags, security, operationId: 'deletePromptRecording', summary: 'Delete the recording of a language', params: RecordingParams, response: deleted } },
    async (req, reply) => { await prompts.removeRecording(req.principal!, req.params.tenant_id, req.params.item_id, req.params.language); return reply.code(204).send(null) })
}

export default routes
