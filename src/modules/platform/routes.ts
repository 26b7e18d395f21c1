import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ref } from '../../lib/openapi.js'
import { AuditQuery, PlatformAuditEntry, TenantCreate, TenantListQuery, TenantParams, TenantResponse } from './schemas.js'
import type { Actor, PlatformService, TenantAction } from './service.js'

const tags = ['platform']
/** the control plane's routes: SERVICE_TOKEN or a platform administrator's token (without SERVICE_TOKEN: the latter in strict mode, anyone in interface mode) */
const config = { machine: true, platformAdmins: true }

const actorOf = (req: FastifyRequest): Actor => ({
  actor: req.viaServiceToken ? 'service-token' : req.principal ? `user:${req.principal.id}` : 'anonymous',
  actor_address: req.ip ?? null,
  request_id: req.id,
})

const routes: FastifyPluginAsyncTypebox<{ service: PlatformService }> = async (app, { service }) => {
  app.post('/tenants', {
    config,
    schema: { tags, operationId: 'createTenant', summary: 'Place a tenant in this cell (200, as every creation outside the six the interface names; an identical repeat answers 200 too, a different body for the same id 409; cell_id must equal CELL_ID)', body: ref(TenantCreate), response: { 200: ref(TenantResponse) } },
  }, async (req) => service.create(req.body, actorOf(req)))

  app.get('/tenants', {
    config,
    schema: { tags, operationId: 'listTenants', summary: 'The tenants of this cell (beyond the interface), by tenant_id', querystring: TenantListQuery, response: { 200: Type.Array(ref(TenantResponse)) } },
  }, async (req) => service.list(req.query))

  app.get('/tenants/:tenant_id', {
    config,
    schema: { tags, operationId: 'getTenant', summary: 'One tenant, deleted ones included', params: TenantParams, response: { 200: ref(TenantResponse) } },
  }, async (req) => service.get(req.params.tenant_id))

  const actions: [TenantAction, 'post' | 'delete', string, string][] = [
    ['delete', 'delete', '/tenants/:tenant_id', 'Delete: the terminal state (data kept, telephony off, get still shows it); idempotent'],
    ['suspend', 'post', '/tenants/:tenant_id/suspend', 'Suspend: the organization\'s telephony is switched off; idempotent; 409 when deleted'],
    ['activate', 'post', '/tenants/:tenant_id/activate', 'Activate: the telephony is back; idempotent; 409 when deleted'],
  ]
  for (const [action, method, url, summary] of actions) {
    app.route({
      method: method.toUpperCase() as 'POST' | 'DELETE',
      url,
      config,
      schema: { tags, operationId: `${action}Tenant`, summary, params: TenantParams, response: { 200: ref(TenantResponse) } },
      handler: async (req) => service.apply((req.params as { tenant_id: string }).tenant_id, action, actorOf(req)),
    })
  }

  app.get('/audit', {
    config,
    schema: { tags, operationId: 'platformAudit', summary: 'Changes of the tenant registry, newest first, with actor and time (beyond the interface)', querystring: AuditQuery, response: { 200: Type.Array(ref(PlatformAuditEntry)) } },
  }, async (req) => service.audit({ tenantId: req.query.tenant_id, skip: req.query.skip, limit: req.query.limit }))
}

export default routes
