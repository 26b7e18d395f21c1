import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { markRoutes } from '../../lib/auth.js'
import { bearer, ref } from '../../lib/openapi.js'
import { OutboundRouteCreate, OutboundRouteResponse, OutboundRouteUpdate, RouteParams, TenantParams, TrunkCreate, TrunkParams, TrunkResponse, TrunksStatus, TrunkUpdate } from './schemas.js'
import type { TrunkService } from './service.js'

const security = bearer
const deleted = { 204: Type.Null({ description: 'deleted' }) }

/** The providers' trunks, under /api/trunks/: the deployment's, so an administrator's; managers read them to pick a route's trunks. */
export const trunkRoutes: FastifyPluginAsyncTypebox<{ service: TrunkService }> = async (app, { service: { trunks } }) => {
  const tags = ['trunks']
  const admins = { user: ['admin'] } as const
  app.get('/', {
    prefixTrailingSlash: 'slash', config: { user: ['admin', 'manager'] },
    schema: { tags, security, operationId: 'listTrunks', summary: 'The providers\' trunks, with the routes that use each', response: { 200: Type.Array(ref(TrunkResponse)) } },
  }, async () => trunks.list())
  app.post('/', {
    prefixTrailingSlash: 'slash', config: admins,
    schema: { tags, security, operationId: 'createTrunk', summary: 'Create a trunk: by registration (username, password, realm) or by IP (its addresses identified)', body: ref(TrunkCreate), response: { 201: ref(TrunkResponse) } },
  }, async (req, reply) => reply.code(201).send(await trunks.create(req.body)))
  app.get('/status', {
    config: admins,
    schema: { tags, security, operationId: 'trunksStatus', summary: 'Each trunk\'s registration in Asterisk (PJSIPShowRegistrationsOutbound)', response: { 200: ref(TrunksStatus) } },
  }, async () => trunks.status())
  app.get('/:trunk_id', {
    config: admins,
    schema: { tags, security, operationId: 'getTrunk', summary: 'Get a trunk', params: TrunkParams, response: { 200: ref(TrunkResponse) } },
  }, async (req) => trunks.get(req.params.trunk_id))
  app.put('/:trunk_id', {
    config: admins,
    schema: { tags, security, operationId: 'updateTrunk', summary: 'Change a trunk (partial; a new username or realm needs the password again)', params: TrunkParams, body: ref(TrunkUpdate), response: { 200: ref(TrunkResponse) } },
  }, async (req) => trunks.update(req.params.trunk_id, req.body))
  app.delete('/:trunk_id', {
    config: admins,
    schema: { tags, security, operationId: 'deleteTrunk', summary: 'Delete a trunk (409 naming the routes that still use it)', params: TrunkParams, response: deleted },
  }, async (req, reply) => { await trunks.remove(req.params.trunk_id); return reply.code(204).send(null) })
}

/** An organization's outbound routes, under /api/organizations/{tenant_id}/outbound-routes (an admin or the organization's manager). */
export const outboundRouteRoutes: FastifyPluginAsyncTypebox<{ service: TrunkService }> = async (app, { service: { routes } }) => {
  markRoutes(app, { user: ['admin', 'manager'], organization: 'tenant_id' })
  const tags = ['outbound-routes']
  app.get('/', {
    prefixTrailingSlash: 'slash',
    schema: { tags, security, operationId: 'listOutboundRoutes', summary: 'The organization\'s outbound routes', params: TenantParams, response: { 200: Type.Array(ref(OutboundRouteResponse)) } },
  }, async (req) => routes.list(req.principal!, req.params.tenant_id))
  app.post('/', {
    prefixTrailingSlash: 'slash',
    schema: { tags, security, operationId: 'createOutboundRoute', summary: 'Create an outbound route: dial patterns and trunks in order of preference', params: TenantParams, body: ref(OutboundRouteCreate), response: { 201: ref(OutboundRouteResponse) } },
  }, async (req, reply) => reply.code(201).send(await routes.create(req.principal!, req.params.tenant_id, req.body)))
  app.put('/:route_id', {
    schema: { tags, security, operationId: 'updateOutboundRoute', summary: 'Change an outbound route (partial; `patterns` and `trunk_ids` replace the lists)', params: RouteParams, body: ref(OutboundRouteUpdate), response: { 200: ref(OutboundRouteResponse) } },
  }, async (req) => routes.update(req.principal!, req.params.tenant_id, req.params.route_id, req.body))
  app.delete('/:route_id', {
    schema: { tags, security, operationId: 'deleteOutboundRoute', summary: 'Delete an outbound route', params: RouteParams, response: deleted },
  }, async (req, reply) => { await routes.remove(req.principal!, req.params.tenant_id, req.params.route_id); return reply.code(204).send(null) })
}
