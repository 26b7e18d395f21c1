import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { markRoutes } from '../../lib/auth.js'
import { AppError } from '../../lib/errors.js'
import { bearer, ref } from '../../lib/openapi.js'
import type { ShownRecorder } from '../audit/recorder.js'
import { LinkedidParams, Recording, RecordingIdParams, RecordingUsage, type RecordingOut } from './schemas.js'
import type { RecordingService } from './service.js'

const tags = ['recordings']
const security = bearer
/** the file, streamed (never serialized) */
const AUDIO = Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', format: 'binary' })

/** Beyond the interface: the calls' recordings (DESIGN 10), heard by those the service lets hear them. */
const routes: FastifyPluginAsyncTypebox<{ service: RecordingService, shown?: ShownRecorder, usage: () => Promise<RecordingUsage> }> = async (app, { service, shown, usage }) => {
  markRoutes(app, { user: true })

  app.get('/recordings/usage', {
    config: { user: ['admin', 'manager'] },
    schema: { tags, security, operationId: 'recordingUsage', summary: 'The disk the recordings take, what arrives a day, and the days left before RECORDINGS_MAX_BYTES', response: { 200: ref(RecordingUsage) } },
  }, async () => usage())

  app.get('/line-calls/:linkedid/recordings', {
    config: { personalData: { subject: 'recording', ids: (legs: RecordingOut[]) => legs.map((r) => r.id), rowsOnly: true } },
    schema: { tags, security, operationId: 'listCallRecordings', summary: 'A call\'s recorded legs that the caller may hear, in the order they began ([] when none)', params: LinkedidParams, response: { 200: Type.Array(ref(Recording)) } },
  }, async (req) => service.list(req.principal!, req.params.linkedid))

  app.get('/recordings/:recording_id', {
    schema: {
      tags, security, operationId: 'getRecording', params: RecordingIdParams, produces: ['audio/ogg', 'audio/wav'],
      summary: 'A recording to hear (audio/ogg; audio/wav while no encoder ran), with HTTP Range: 206 for a range, 416 for one that names no byte; 404 for whoever may not hear it, 410 when its file was removed. Every listen is in the personal-data audit',
      response: { 200: AUDIO, 206: AUDIO },
    },
  }, async (req, reply) => {
    const opened = await service.open(req.principal!, req.params.recording_id, req.headers.range)
    if (opened.range === 'unsatisfiable') throw new AppError(416, 'range_not_satisfiable', 'The Range names no byte of the recording', { 'content-range': `bytes */${opened.size}` })
    // a listen is recorded before its first byte leaves
    await shown?.(req, 'recording', [opened.recording.id], { range: req.headers.range ?? 'whole' })
    reply.type(opened.mediaType)
      .header('accept-ranges', 'bytes')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename="${opened.downloadName}"`)
    if (opened.range) {
      reply.code(206).header('content-range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`).header('content-length', String(opened.range.end - opened.range.start + 1))
    } else {
      reply.header('content-length', String(opened.size))
    }
    return reply.send(opened.body())
  })
}

export default routes
