import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bearer, ref } from '../../lib/openapi.js'
import type { BreakReasons } from './break-reasons.js'
import type { MyPhonesService } from './phones.js'
import { AgentChoice, AgentView, BreakReason, BreakReasonCreate, BreakReasonUpdate, MyPhones, ReasonParams } from './schemas.js'
import type { AgentService } from './service.js'

const tags = ['agents']
const security = bearer

/** The operators' availability (beyond the interface): the desk's switch and the supervisors' view. */
const routes: FastifyPluginAsyncTypebox<{ service: AgentService, reasons: BreakReasons, phones: MyPhonesService }> = async (app, { service, reasons, phones }) => {
  markRoutes(app, { user: true })
  const admins = { user: ['admin'] } as const
  app.get('/break-reasons', {
    schema: { tags, security, operationId: 'listBreakReasons', summary: 'The reasons an operator may go on a break for, in order, named in Russian and Kazakh, each with its longest', response: { 200: Type.Array(ref(BreakReason)) } },
  }, async () => reasons.list())
  app.post('/break-reasons', {
    config: admins,
    schema: { tags, security, operationId: 'createBreakReason', summary: 'Add a break reason (409 for a code taken)', body: ref(BreakReasonCreate), response: { 201: ref(BreakReason) } },
  }, async (req, reply) => reply.code(201).send(await reasons.create(req.body)))
  app.put('/break-reasons/:code', {
    config: admins,
    schema: { tags, security, operationId: 'updateBreakReason', summary: 'Rename a break reason, change its longest or its place', params: ReasonParams, body: ref(BreakReasonUpdate), response: { 200: ref(BreakReason) } },
  }, async (req) => reasons.update(req.params.code, req.body))
  app.delete('/break-reasons/:code', {
    config: admins,
    schema: { tags, security, operationId: 'deleteBreakReason', summary: 'Take a reason off the list (409 for the default one, `break`); breaks taken with it keep its code', params: ReasonParams, response: { 204: Type.Null({ description: 'deleted' }) } },
  }, async (req, reply) => { await reasons.remove(req.params.code); return reply.code(204).send(null) })
  app.get('/me', {
    schema: { tags, security, operationId: 'getMyAgentState', summary: 'The signed-in operator\'s state as Asterisk has it, and their last choice', response: { 200: ref(AgentView) } },
  }, async (req) => service.me(req.principal!))
  app.put('/me', {
    schema: { tags, security, operationId: 'setMyAgentState', summary: 'Ready, or a break with its reason: the operator\'s terminals are unpaused or paused in every queue (503 when Asterisk does not answer; the choice is kept and put back later)', body: ref(AgentChoice), response: { 200: ref(AgentView) } },
  }, async (req) => service.choose(req.principal!, req.body))
  app.get('/me/phones', {
    schema: { tags, security, operationId: 'getMyPhones', summary: 'The signed-in employee\'s browser phones and the keys their console registers them with (never cached; nobody else\'s)', response: { 200: ref(MyPhones) } },
  }, async (req, reply) => reply.header('cache-control', 'no-store').send(await phones.mine(req.principal!)))
  app.delete('/me/phones', {
    schema: { tags, security, operationId: 'signOutMyPhones', summary: 'At sign-out: new keys for the employee\'s browser phones, the ones given out void once the PBX is applied', response: { 204: Type.Null({ description: 'renewed' }) } },
  }, async (req, reply) => { await phones.signOut(req.principal!); return reply.code(204).send(null) })
  app.get('', {
    schema: { tags, security, operationId: 'listAgentStates', summary: 'Every operator with a terminal and their state (admins: all; managers: their organization\'s)', response: { 200: Type.Array(ref(AgentView)) } },
  }, async (req) => service.list(req.principal!))
}

export default routes
