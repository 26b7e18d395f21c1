import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { markRoutes, STRUCTURE_WRITE } from '../../lib/auth.js'
import { Type } from 'typebox'
import { MessageResponse } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'
import { GroupCreate, GroupIdParams, GroupResponse, GroupUpdate } from './schemas.js'
import type { GroupService } from './service.js'

const tags = ['groups']

const routes: FastifyPluginAsyncTypebox<{ service: GroupService }> = async (app, { service }) => {
  markRoutes(app, STRUCTURE_WRITE, { writesOnly: true })
  app.get('', {
    schema: { tags, operationId: 'listGroups', summary: 'List groups', response: { 200: Type.Array(ref(GroupResponse)) } },
  }, async () => service.list())

  app.post('', {
    schema: { tags, operationId: 'createGroup', summary: 'Create a group', body: ref(GroupCreate), response: { 200: ref(GroupResponse) } },
  }, async (req) => service.create(req.body))

  app.get('/:group_id', {
    schema: { tags, operationId: 'getGroup', summary: 'Get a group', params: GroupIdParams, response: { 200: ref(GroupResponse) } },
  }, async (req) => service.get(req.params.group_id))

  app.put('/:group_id', {
    schema: { tags, operationId: 'updateGroup', summary: 'Rename a group', params: GroupIdParams, body: ref(GroupUpdate), response: { 200: ref(GroupResponse) } },
  }, async (req) => service.update(req.params.group_id, req.body))

  app.delete('/:group_id', {
    schema: { tags, operationId: 'deleteGroup', summary: 'Delete a group that no organization uses', params: GroupIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.remove(req.params.group_id))
}

export default routes
