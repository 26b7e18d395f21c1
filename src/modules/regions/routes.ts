import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { markRoutes, STRUCTURE_WRITE } from '../../lib/auth.js'
import { Type } from 'typebox'
import { MessageResponse } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'
import { RegionCreate, RegionIdParams, RegionListQuery, RegionReorder, RegionResponse, RegionTreeItem, RegionUpdate, TreeQuery } from './schemas.js'
import type { RegionService } from './service.js'

const tags = ['regions']

/** Mounted under /api/regions and /api/shared/regions; `variant` keeps the operation ids unique. */
const routes: FastifyPluginAsyncTypebox<{ service: RegionService, variant: string }> = async (app, { service, variant }) => {
  markRoutes(app, STRUCTURE_WRITE, { writesOnly: true })
  const op = (name: string) => `${name}${variant}`

  app.get('/tree', {
    schema: { tags, operationId: op('getRegionTree'), summary: 'Regions as a tree, in order', querystring: TreeQuery, response: { 200: Type.Array(ref(RegionTreeItem)) } },
  }, async (req) => service.tree(req.query.include_inactive))

  app.get('', {
    schema: { tags, operationId: op('listRegions'), summary: 'List regions', querystring: RegionListQuery, response: { 200: Type.Array(ref(RegionResponse)) } },
  }, async (req) => service.list(req.query))

  app.post('', {
    schema: { tags, operationId: op('createRegion'), summary: 'Create a region', body: ref(RegionCreate), response: { 200: ref(RegionResponse) } },
  }, async (req) => service.create(req.body))

  app.put('/reorder', {
    schema: { tags, operationId: op('reorderRegions'), summary: 'Order the children of one parent', body: ref(RegionReorder), response: { 200: ref(MessageResponse) } },
  }, async (req) => service.reorder(req.body.region_ids))

  app.get('/:region_id', {
    schema: { tags, operationId: op('getRegion'), summary: 'Get a region', params: RegionIdParams, response: { 200: ref(RegionResponse) } },
  }, async (req) => service.get(req.params.region_id))

  app.put('/:region_id', {
    schema: { tags, operationId: op('updateRegion'), summary: 'Update a region (name required, other fields partial)', params: RegionIdParams, body: ref(RegionUpdate), response: { 200: ref(RegionResponse) } },
  }, async (req) => service.update(req.params.region_id, req.body))

  app.delete('/:region_id', {
    schema: { tags, operationId: op('deleteRegion'), summary: 'Delete a region without children or organizations', params: RegionIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.remove(req.params.region_id))
}

export default routes
