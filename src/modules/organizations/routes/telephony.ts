import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { MessageResponse } from '../../../lib/common-schemas.js'
import { bearer, ref } from '../../../lib/openapi.js'
import {
  NotificationSettings, NotificationSettingsSave, OrganizationDetailResponse, OrganizationDetailUpdate, OrganizationIdParams, PartnerQuery,
  TelephonyListQuery, TelephonyOrganizationCreate, TelephonyOrganizationResponse,
} from '../schemas.js'
import type { OrganizationService } from '../service.js'

const tags = ['organizations']
const security = bearer

/**
 * Shape B (/api/organizations/ with the trailing slash), its item routes (which Shape A's
 * GET/PUT/DELETE /api/organizations/{id} share: Bearer, the union of both shapes), search and
 * notification settings.
 */
const routes: FastifyPluginAsyncTypebox<{ service: OrganizationService }> = async (app, { service }) => {
  const adminOnly = { user: ['admin'] } as const

  app.get('/', {
    prefixTrailingSlash: 'slash',
    // the same bytes for every user; the counts' changes drop it too (migration 0021)
    config: { user: true, cachedAs: 'organizations' },
    schema: { tags, security, operationId: 'listTelephonyOrganizations', summary: 'List organizations (Shape B)', querystring: TelephonyListQuery, response: { 200: Type.Array(ref(TelephonyOrganizationResponse)) } },
  }, async (req) => service.list({ oblastId: req.query.oblast_id, includeInactive: req.query.include_inactive, skip: req.query.skip, limit: req.query.limit }))

  app.post('/', {
    prefixTrailingSlash: 'slash',
    config: adminOnly,
    schema: { tags, security, operationId: 'createTelephonyOrganization', summary: 'Create an organization (Shape B)', body: ref(TelephonyOrganizationCreate), response: { 201: ref(TelephonyOrganizationResponse) } },
  }, async (req, reply) => reply.code(201).send(await service.createTelephony(req.body)))

  app.get('/search', {
    schema: { tags, operationId: 'findOrganizationByPartner', summary: 'The organization with this partner_uuid in its notification settings', querystring: PartnerQuery, response: { 200: ref(TelephonyOrganizationResponse) } },
  }, async (req) => service.findByPartner(req.query.partner_uuid))

  app.get('/:organization_id', {
    config: { user: true },
    schema: { tags, security, operationId: 'getOrganization', summary: 'Get an organization (the union of Shape A and Shape B)', params: OrganizationIdParams, response: { 200: ref(OrganizationDetailResponse) } },
  }, async (req) => service.get(req.params.organization_id))

  app.put('/:organization_id', {
    config: adminOnly,
    schema: { tags, security, operationId: 'updateOrganization', summary: 'Update with a Shape A or a Shape B body; fields not sent keep their values', params: OrganizationIdParams, body: ref(OrganizationDetailUpdate), response: { 200: ref(OrganizationDetailResponse) } },
  }, async (req) => service.update(req.params.organization_id, req.body))

  app.delete('/:organization_id', {
    config: adminOnly,
    schema: { tags, security, operationId: 'deleteOrganization', summary: 'Delete an organization nothing refers to', params: OrganizationIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.remove(req.params.organization_id))

  app.get('/:organization_id/notifications', {
    schema: { tags, operationId: 'getNotificationSettings', summary: 'Notification settings (defaults until saved)', params: OrganizationIdParams, response: { 200: ref(NotificationSettings) } },
  }, async (req) => service.notifications(req.params.organization_id))

  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/:organization_id/notifications',
      config: { user: ['admin', 'manager'], organization: 'organization_id' },
      schema: { tags, security, operationId: `${method === 'PUT' ? 'put' : 'post'}NotificationSettings`, summary: 'Save notification settings (PUT and POST both upsert; fields not sent keep their values)', params: OrganizationIdParams, body: ref(NotificationSettingsSave), response: { 200: ref(NotificationSettings) } },
      handler: async (req) => service.saveNotifications(req.principal!, req.params.organization_id, req.body),
    })
  }
}

export default routes
