import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { markRoutes } from '../../lib/auth.js'
import { bearer, ref } from '../../lib/openapi.js'
import type { ShownRecorder } from '../audit/recorder.js'
import { PlaceCallRequest, PlacedCall, PlacedCallParams, PlacedCallQuery, SpyRequest, SpyResponse, TransferQueue, TransferRequest, TransferResponse } from './schemas.js'
import type { PlacedCallService } from './service.js'
import type { TransferService } from './transfers.js'

const tags = ['calls']
const security = bearer

/** Beyond the interface: calls the centre places (issue 50), and supervisors joining an operator's call. */
const routes: FastifyPluginAsyncTypebox<{ service: PlacedCallService, transfers: TransferService, shown?: ShownRecorder }> = async (app, { service, transfers, shown }) => {
  markRoutes(app, { user: true })

  app.post('/calls', {
    schema: {
      tags, security, operationId: 'placeCall', body: ref(PlaceCallRequest), response: { 202: ref(PlacedCall) },
      summary: 'Call a citizen: the user\'s own terminal rings first, then the number is dialled as the terminal would dial it; progress comes as `call.placed` live events. ' +
        '409 no_terminal, terminal_offline, call_in_progress; 403 not_permitted (the terminal may not dial it), number_not_allowed (an operator\'s number that is no citizen\'s); 422 not a phone number; 503 Asterisk not answering',
    },
  }, async (req, reply) => reply.code(202).send(await service.place(req.principal!, req.body)))

  app.get('/calls', {
    schema: { tags, security, operationId: 'listPlacedCalls', summary: 'Calls placed: the user\'s own (a manager: its organization\'s; an admin: all), the latest first', querystring: PlacedCallQuery, response: { 200: Type.Array(ref(PlacedCall)) } },
  }, async (req) => service.list(req.principal!, req.query))

  app.get('/calls/:call_id', {
    schema: { tags, security, operationId: 'getPlacedCall', summary: 'A call placed, as far as it has gone', params: PlacedCallParams, response: { 200: ref(PlacedCall) } },
  }, async (req) => service.get(req.principal!, req.params.call_id))

  const Passed = Type.Object({ call_id: Type.String() })
  app.get('/calls/transfer/queues', {
    schema: { tags, security, operationId: 'transferQueues', summary: 'The queues of the user\'s organization a call may be passed to (its own first): the first of their operators ready answers (409 no_terminal)', response: { 200: Type.Array(ref(TransferQueue)) } },
  }, async (req) => transfers.queues(req.principal!))
  app.post('/calls/transfer', {
    schema: {
      tags, security, operationId: 'transferCall', body: ref(TransferRequest), response: { 202: ref(TransferResponse) },
      summary: 'Pass the call the user is on: blind (the caller goes at once) or attended (the user consults first, the caller on hold), to a colleague\'s terminal, one of the organization\'s queues or an organization\'s line; a desk phone and a browser phone alike. ' +
        '404 no such terminal, queue or line; 409 no_terminal, not_in_call, own_terminal, in_consultation, transfer_refused; 422 the extension or number missing; 503 Asterisk not answering',
    },
  }, async (req, reply) => reply.code(202).send(await transfers.transfer(req.principal!, req.body)))
  app.post('/calls/transfer/complete', {
    schema: { tags, security, operationId: 'completeTransfer', summary: 'An attended transfer\'s end: the user leaves, the caller and the one consulted talk (409 not_in_call, no_transfer)', response: { 202: Passed } },
  }, async (req, reply) => reply.code(202).send(await transfers.complete(req.principal!)))
  app.post('/calls/transfer/cancel', {
    schema: { tags, security, operationId: 'cancelTransfer', summary: 'An attended transfer given up: the one consulted is hung up, the caller is back with the user (409 not_in_call, no_transfer)', response: { 202: Passed } },
  }, async (req, reply) => reply.code(202).send(await transfers.cancel(req.principal!)))
  app.post('/calls/transfer/conference', {
    schema: { tags, security, operationId: 'joinTransfer', summary: 'An attended transfer\'s consultation made a three-way call: the user, the caller and the one consulted talk together; the user\'s hang-up leaves the other two talking (409 not_in_call, no_transfer)', response: { 202: Passed } },
  }, async (req, reply) => reply.code(202).send(await transfers.conference(req.principal!)))

  app.post('/calls/spy', {
    config: { user: ['admin', 'manager'] },
    schema: {
      tags, security, operationId: 'spyOnCall', body: ref(SpyRequest), response: { 202: ref(SpyResponse) },
      summary: 'Join an operator\'s live call (supervisors of its organization, admins): the supervisor\'s own terminal rings and, answered, listens, whispers to the operator or barges in. Each time in the personal-data audit. ' +
        '404 no such terminal of your organization; 409 not_in_call, no_terminal, terminal_offline; 503 Asterisk not answering',
    },
  }, async (req, reply) => {
    const joined = await service.spy(req.principal!, req.body)
    await shown?.(req, 'line_call', [joined.call_id], { joined: req.body.mode, operator_terminal: req.body.terminal_id, supervisor_terminal: joined.terminal_id })
    return reply.code(202).send(joined)
  })
}

export default routes
