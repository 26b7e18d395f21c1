import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { MessageResponse } from '../../lib/common-schemas.js'
import { bearer, ref } from '../../lib/openapi.js'
import { EndpointCreate, EndpointListQuery, EndpointsStatus, EndpointParams, EndpointPasswordUpdate, EndpointResponse, EndpointUpdate, PhoneSettings, TenantParams } from './schemas.js'
import type { EndpointService } from './service.js'

const tags = ['endpoints']
const security = bearer

/** SIP terminals of one tenant, under /api/organizations/{tenant_id}/endpoints/ (all Bearer). */
const routes: FastifyPluginAsyncTypebox<{ service: EndpointService }> = async (app, { service }) => {
  markRoutes(app, { user: ['admin', 'manager'], organization: 'tenant_id' })

  app.get('/', {
    prefixTrailingSlash: 'slash',
    schema: { tags, security, operationId: 'listEndpoints', summary: 'List the tenant\'s SIP terminals', params: TenantParams, querystring: EndpointListQuery, response: { 200: Type.Array(ref(EndpointResponse)) } },
  }, async (req) => service.list(req.principal!, req.params.tenant_id, req.query.skip, req.query.limit))

  app.post('/', {
    prefixTrailingSlash: 'slash',
    schema: { tags, security, operationId: 'createEndpoint', summary: 'Create a SIP terminal; its id is the organization prefix and the extension', params: TenantParams, body: ref(EndpointCreate), response: { 201: ref(EndpointResponse) } },
  }, async (req, reply) => reply.code(201).send(await service.create(req.principal!, req.params.tenant_id, req.body)))

  app.get('/status', {
    schema: { tags, security, operationId: 'endpointsStatus', summary: 'Registration of each terminal in Asterisk (PJSIPShowEndpoints, PJSIPShowContacts)', params: TenantParams, response: { 200: ref(EndpointsStatus) } },
  }, async (req) => service.status(req.principal!, req.params.tenant_id))

  app.get('/phone-settings', {
    schema: { tags, security, operationId: 'phoneSettings', summary: 'What a phone needs besides its terminal\'s id and password: the server, port and realm, and the echo test it dials', params: TenantParams, response: { 200: ref(PhoneSettings) } },
  }, async (req) => service.phoneSettings(req.principal!, req.params.tenant_id))

  app.get('/:endpoint_id', {
    schema: { tags, security, operationId: 'getEndpoint', summary: 'Get a SIP terminal', params: EndpointParams, response: { 200: ref(EndpointResponse) } },
  }, async (req) => service.get(req.principal!, req.params.tenant_id, req.params.endpoint_id))

  app.put('/:endpoint_id', {
    schema: { tags, security, operationId: 'updateEndpoint', summary: 'Update a SIP terminal (partial; extension and password are refused)', params: EndpointParams, body: ref(EndpointUpdate), response: { 200: ref(EndpointResponse) } },
  }, async (req) => service.update(req.principal!, req.params.tenant_id, req.params.endpoint_id, req.body))

  app.delete('/:endpoint_id', {
    schema: { tags, security, operationId: 'deleteEndpoint', summary: 'Delete a SIP terminal', params: EndpointParams, response: { 204: Type.Null({ description: 'deleted' }) } },
  }, async (req, reply) => {
    await service.remove(req.principal!, req.params.tenant_id, req.params.endpoint_id)
    return reply.code(204).send(null)
  })

  app.put('/:endpoint_id/password', {
    schema: { tags, security, operationId: 'setEndpointPassword', summary: 'Set the SIP password', params: EndpointParams, body: ref(EndpointPasswordUpdate), response: { 200: ref(MessageResponse) } },
  }, async (req) => service.setPassword(req.principal!, req.params.tenant_id, req.params.endpoint_id, req.body.password))
}

export default routes
