import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { markRoutes, STRUCTURE_WRITE } from '../../../lib/auth.js'
import { Type } from 'typebox'
import { MessageResponse } from '../../../lib/common-schemas.js'
import { ref } from '../../../lib/openapi.js'
import {
  OrganizationCreate, OrganizationResponse, OrganizationUpdate, OrgIdParams, RetryResponse, SharedListQuery, SharedListQueryS, SharedOrganizationResponse,
} from '../schemas.js'
import type { OrganizationService } from '../service.js'

const tags = ['organizations']

/**
 * Shape A (/api/organizations, no trailing slash) and Shape S (/api/shared/organizations): one plugin
 * mounted twice. Shape A's item routes collide with Shape B's and live in telephony.ts.
 */
const routes: FastifyPluginAsyncTypebox<{ service: OrganizationService, shape: 'A' | 'S' }> = async (app, { service, shape }) => {
  markRoutes(app, STRUCTURE_WRITE, { writesOnly: true })
  const shared = shape === 'S'
  const op = (name: string) => `${name}${shared ? 'Shared' : ''}`
  const response = shared ? SharedOrganizationResponse : OrganizationResponse

  app.get('', {
    schema: { tags, operationId: op('listOrganizations'), summary: `List organizations (Shape ${shape})`, querystring: shared ? SharedListQueryS : SharedListQuery, response: { 200: Type.Array(ref(response)) } },
  }, async (req) => {
    const q = req.query as { region_id?: number, oblast_id?: number, show_inactive: boolean, skip: number, limit: number }
    return service.list({ regionId: q.region_id, oblastId: q.oblast_id, includeInactive: q.show_inactive, skip: q.skip, limit: q.limit })
  })

  app.post('', {
    schema: { tags, operationId: op('createOrganization'), summary: `Create an organization (Shape ${shape})`, body: ref(OrganizationCreate), response: { 200: ref(response) } },
  }, async (req) => service.createShared(req.body))

  app.post('/retry-all-failed-ext', {
    schema: { tags, operationId: op('retryAllFailedExtSync'), summary: 'Queue every failed synchronisation again', response: { 200: ref(RetryResponse) } },
  }, async () => service.retryAllFailed())

  app.post('/:org_id/retry-ext-sync', {
    schema: { tags, operationId: op('retryExtSync'), summary: 'Queue the organization\'s synchronisation again', params: OrgIdParams, response: { 200: ref(RetryResponse) } },
  }, async (req) => service.retryOne(req.params.org_id))

  if (!shared) return

  app.get('/:org_id', {
    schema: { tags, operationId: op('getOrganization'), summary: 'Get an organization (Shape S)', params: OrgIdParams, response: { 200: ref(response) } },
  }, async (req) => service.get(req.params.org_id))

  app.put('/:org_id', {
    schema: { tags, operationId: op('updateOrganization'), summary: 'Update an organization (name and region_id required; the prefix cannot be changed here)', params: OrgIdParams, body: ref(OrganizationUpdate), response: { 200: ref(response) } },
  }, async (req) => service.update(req.params.org_id, req.body))

  app.delete('/:org_id', {
    schema: { tags, operationId: op('deleteOrganization'), summary: 'Delete an organization nothing refers to', params: OrgIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.remove(req.params.org_id))
}

export default routes
