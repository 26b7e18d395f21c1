import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bearer, ref } from '../../lib/openapi.js'
import { LineBoard, LineCallPage, LineCallParams, LineCallQuery, LineCallView, LineKpiQuery, LineKpis } from './schemas.js'
import type { LineCallService } from './service.js'

const tags = ['line-calls']
const security = bearer

/** The line's calls from Asterisk's events (beyond the interface): admins see all, managers their organization's. */
const routes: FastifyPluginAsyncTypebox<{ service: LineCallService }> = async (app, { service }) => {
  app.addHook('onRequest', app.requireUser)
  app.get('', {
    schema: { tags, security, operationId: 'listLineCalls', summary: 'The line\'s calls, newest first, as Asterisk\'s events told them (calls in progress too)', querystring: LineCallQuery, response: { 200: ref(LineCallPage) } },
  }, async (req) => service.list(req.principal!, req.query))
  app.get('/kpis', {
    schema: { tags, security, operationId: 'lineKpis', summary: 'The queues\' figures of a period (default: today): per queue, 30-minute interval, day and operator, after Asterisk\'s definitions', querystring: LineKpiQuery, response: { 200: ref(LineKpis) } },
  }, async (req) => service.kpis(req.principal!, req.query))
  app.get('/board', {
    schema: { tags, security, operationId: 'lineBoard', summary: 'The live board: today\'s figures per queue, the callers waiting now and the agents\' states (the console reads it again on each line.changed)', response: { 200: ref(LineBoard) } },
  }, async (req) => service.board(req.principal!))
  app.get('/:linkedid', {
    schema: { tags, security, operationId: 'getLineCall', summary: 'One call by its Linkedid', params: LineCallParams, response: { 200: ref(LineCallView) } },
  }, async (req) => service.get(req.principal!, req.params.linkedid))
}

export default routes
