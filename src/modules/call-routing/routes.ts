import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bearer, ref } from '../../lib/openapi.js'
import {
  ItemParams, LineCreate, LineResponse, LineUpdate, MenuCreate, MenuResponse, MenuUpdate, PromptCreate, PromptResponse, QueueCreate, QueueResponse, QueueUpdate,
  RecordingParams, ScheduleCreate, ScheduleResponse, ScheduleUpdate, TenantParams,
} from './schemas.js'
import type { CallRoutingService } from './service.js'
import { ACCEPTED_WAV } from './wav.js'

const security = bearer
const deleted = { 204: Type.Null({ description: 'deleted' }) }
/** the types a browser or a tool gives a WAV file */
export const WAV_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'application/octet-stream']

/** An organization's call routing, under /api/organizations/{tenant_id}/ (all Bearer: an admin or the organization's manager). */
const routes: FastifyPluginAsyncTypebox<{ service: CallRoutingService, maxRecordingBytes: number }> = async (app, { service, maxRecordingBytes }) => {
  app.addHook('onRequest', app.requireUser)
  app.addContentTypeParser(WAV_TYPES, { parseAs: 'buffer', bodyLimit: maxRecordingBytes }, (_req, body, done) => { done(null, body) })

  const { queues, schedules, menus, lines, prompts } = service

  let tags = ['queues']
  app.get('/queues', { schema: { tags, security, operationId: 'listQueues', summary: 'The organization\'s queues, its default queue first', params: TenantParams, response: { 200: Type.Array(ref(QueueResponse)) } } },
    async (req) => queues.list(req.principal!, req.params.tenant_id))
  app.post('/queues', { schema: { tags, security, operationId: 'createQueue', summary: 'Create a queue (409 beyond the organization\'s max_queues)', params: TenantParams, body: ref(QueueCreate), response: { 201: ref(QueueResponse) } } },
    async (req, reply) => reply.code(201).send(await queues.create(req.principal!, req.params.tenant_id, req.body)))
  app.get('/queues/:item_id', { schema: { tags, security, operationId: 'getQueue', summary: 'Get a queue', params: ItemParams, response: { 200: ref(QueueResponse) } } },
    async (req) => queues.get(req.principal!, req.params.tenant_id, req.params.item_id))
  app.put('/queues/:item_id', { schema: { tags, security, operationId: 'updateQueue', summary: 'Change a queue (partial; `members` replaces the list)', params: ItemParams, body: ref(QueueUpdate), response: { 200: ref(QueueResponse) } } },
    async (req) => queues.update(req.principal!, req.params.tenant_id, req.params.item_id, req.body))
  app.delete('/queues/:item_id', { schema: { tags, security, operationId: 'deleteQueue', summary: 'Delete a queue (409 while a line, a menu or a queue sends calls to it, and for the default queue)', params: ItemParams, response: deleted } },
    async (req, reply) => { await queues.remove(req.principal!, req.params.tenant_id, req.params.item_id); return reply.code(204).send(null) })

  tags = ['schedules']
  app.get('/schedules', { schema: { tags, security, operationId: 'listSchedules', summary: 'The organization\'s schedules', params: TenantParams, response: { 200: Type.Array(ref(ScheduleResponse)) } } },
    async (req) => schedules.list(req.principal!, req.params.tenant_id))
  app.post('/schedules', { schema: { tags, security, operationId: 'createSchedule', summary: 'Create a schedule: the centre\'s working calendar, 24/7, or weekly hours', params: TenantParams, body: ref(ScheduleCreate), response: { 201: ref(ScheduleResponse) } } },
    async (req, reply) => reply.code(201).send(await schedules.create(req.principal!, req.params.tenant_id, req.body)))
  app.put('/schedules/:item_id', { schema: { tags, security, operationId: 'updateSchedule', summary: 'Change a schedule (partial; `hours` replaces the list)', params: ItemParams, body: ref(ScheduleUpdate), response: { 200: ref(ScheduleResponse) } } },
    async (req) => schedules.update(req.principal!, req.params.tenant_id, req.params.item_id, req.body))
  app.delete('/schedules/:item_id', { schema: { tags, security, operationId: 'deleteSchedule', summary: 'Delete a schedule (409 while a line keeps it)', params: ItemParams, response: deleted } },
    async (req, reply) => { await schedules.remove(req.principal!, req.params.tenant_id, req.params.item_id); return reply.code(204).send(null) })

  tags = ['menus']
  app.get('/menus', { schema: { tags, security, operationId: 'listMenus', summary: 'The organization\'s voice menus', params: TenantParams, response: { 200: Type.Array(ref(MenuResponse)) } } },
    async (req) => menus.list(req.principal!, req.params.tenant_id))
  app.post('/menus', { schema: { tags, security, operationId: 'createMenu', summary: 'Create a voice menu: a prompt, digits to destinations (a digit may set the call\'s language), a timeout and an invalid choice', params: TenantParams, body: ref(MenuCreate), response: { 201: ref(MenuResponse) } } },
    async (req, reply) => reply.code(201).send(await menus.create(req.principal!, req.params.tenant_id, req.body)))
  app.put('/menus/:item_id', { schema: { tags, security, operationId: 'updateMenu', summary: 'Change a menu (partial; `options` replaces the list)', params: ItemParams, body: ref(MenuUpdate), response: { 200: ref(MenuResponse) } } },
    async (req) => menus.update(req.principal!, req.params.tenant_id, req.params.item_id, req.body))
  app.delete('/menus/:item_id', { schema: { tags, security, operationId: 'deleteMenu', summary: 'Delete a menu (409 while something sends calls to it)', params: ItemParams, response: deleted } },
    async (req, reply) => { await menus.remove(req.principal!, req.params.tenant_id, req.params.item_id); return reply.code(204).send(null) })

  tags = ['inbound lines']
  app.get('/lines', { schema: { tags, security, operationId: 'listLines', summary: 'The numbers the organization answers', params: TenantParams, response: { 200: Type.Array(ref(LineResponse)) } } },
    async (req) => lines.list(req.principal!, req.params.tenant_id))
  app.post('/lines', { schema: { tags, security, operationId: 'createLine', summary: 'Take a number (409 when any organization has it)', params: TenantParams, body: ref(LineCreate), response: { 201: ref(LineResponse) } } },
    async (req, reply) => reply.code(201).send(await lines.create(req.principal!, req.params.tenant_id, req.body)))
  app.put('/lines/:item_id', { schema: { tags, security, operationId: 'updateLine', summary: 'Change a line (partial)', params: ItemParams, body: ref(LineUpdate), response: { 200: ref(LineResponse) } } },
    async (req) => lines.update(req.principal!, req.params.tenant_id, req.params.item_id, req.body))
  app.delete('/lines/:item_id', { schema: { tags, security, operationId: 'deleteLine', summary: 'Give a number up', params: ItemParams, response: deleted } },
    async (req, reply) => { await lines.remove(req.principal!, req.params.tenant_id, req.params.item_id); return reply.code(204).send(null) })

  tags = ['prompts']
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
      summary: `Upload the prompt's recording in a language: the file itself as the body (Content-Type audio/wav), ${ACCEPTED_WAV}, at most ${maxRecordingBytes} bytes`,
      // the body is the file: checked by its own rules (readWav), not by a JSON schema
      consumes: WAV_TYPES, body: Type.Unknown({ description: 'the WAV file', format: 'binary' }),
    },
  }, async (req) => prompts.upload(req.principal!, req.params.tenant_id, req.params.item_id, req.params.language, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)))
  app.get('/prompts/:item_id/recordings/:language', {
    schema: { tags, security, operationId: 'getPromptRecording', summary: 'The recording as it was uploaded (audio/wav), to play it back', params: RecordingParams, produces: ['audio/wav'], response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
  }, async (req, reply) => {
    const recording = await prompts.recording(req.principal!, req.params.tenant_id, req.params.item_id, req.params.language)
    return reply.type('audio/wav').header('cache-control', 'private, no-cache').send(recording.wav)
  })
  app.delete('/prompts/:item_id/recordings/:language', { schema: { tags, security, operationId: 'deletePromptRecording', summary: 'Delete the recording of a language', params: RecordingParams, response: deleted } },
    async (req, reply) => { await prompts.removeRecording(req.principal!, req.params.tenant_id, req.params.item_id, req.params.language); return reply.code(204).send(null) })
}

export default routes
