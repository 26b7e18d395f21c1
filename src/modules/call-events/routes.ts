import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bearer, ref } from '../../lib/openapi.js'
import {
  CallAnsweredEvent, CallAnsweredResult, CallDetail, CallIdParams, CallListQuery, CallSummary, CallTranscriptionEvent, CallTranscriptionResult,
} from './schemas.js'
import type { CallEventService } from './service.js'

const tags = ['call events']
const machine = { machine: true }

const routes: FastifyPluginAsyncTypebox<{ service: CallEventService }> = async (app, { service }) => {
  app.post('/answered', {
    config: machine,
    schema: { tags, operationId: 'callAnswered', summary: 'A call was connected to an operator (stored before the answer; the caller is looked up among persons)', body: ref(CallAnsweredEvent), response: { 200: ref(CallAnsweredResult) } },
  }, async (req) => service.answered(req.body))

  app.post('/transcription', {
    config: machine,
    schema: { tags, operationId: 'callTranscription', summary: 'A transcript chunk (idempotent; is_final closes the call, later chunks are 409)', body: ref(CallTranscriptionEvent), response: { 200: ref(CallTranscriptionResult) } },
  }, async (req) => service.transcription(req.body))

  app.get('/calls', {
    onRequest: app.requireUser,
    schema: { tags, security: bearer, operationId: 'listCalls', summary: 'Call history: an admin sees all, a manager its organization\'s, an operator its own', querystring: CallListQuery, response: { 200: Type.Array(ref(CallSummary)) } },
  }, async (req) => service.list(req.principal!, req.query))

  app.get('/calls/:call_id', {
    onRequest: app.requireUser,
    schema: { tags, security: bearer, operationId: 'getCall', summary: 'One call with its transcript and chunks', params: CallIdParams, response: { 200: ref(CallDetail) } },
  }, async (req) => service.get(req.principal!, req.params.call_id))
}

export default routes
