import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bearer, ref } from '../../lib/openapi.js'
import { AgentChoice, AgentView } from './schemas.js'
import type { AgentService } from './service.js'

const tags = ['agents']
const security = bearer

/** The operators' availability (beyond the interface): the desk's switch and the supervisors' view. */
const routes: FastifyPluginAsyncTypebox<{ service: AgentService }> = async (app, { service }) => {
  markRoutes(app, { user: true })
  app.get('/me', {
    schema: { tags, security, operationId: 'getMyAgentState', summary: 'The signed-in operator\'s state as Asterisk has it, and their last choice', response: { 200: ref(AgentView) } },
  }, async (req) => service.me(req.principal!))
  app.put('/me', {
    schema: { tags, security, operationId: 'setMyAgentState', summary: 'Ready, or a break with its reason: the operator\'s terminals are unpaused or paused in every queue (503 when Asterisk does not answer; the choice is kept and put back later)', body: ref(AgentChoice), response: { 200: ref(AgentView) } },
  }, async (req) => service.choose(req.principal!, req.body))
  app.get('', {
    schema: { tags, security, operationId: 'listAgentStates', summary: 'Every operator with a terminal and their state (admins: all; managers: their organization\'s)', response: { 200: Type.Array(ref(AgentView)) } },
  }, async (req) => service.list(req.principal!))
}

export default routes
