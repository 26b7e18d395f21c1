import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { MessageResponse } from '../../lib/common-schemas.js'
import { bearer, ref } from '../../lib/openapi.js'
import { EmployeeCreate, EmployeeIdParams, EmployeeListQuery, EmployeeResponse, EmployeeUpdate } from './schemas.js'
import type { EmployeeService } from './service.js'

const tags = ['employees']

/** Beyond the interface: the employees that invitations are sent to (admins, and managers for their organization). */
const routes: FastifyPluginAsyncTypebox<{ service: EmployeeService }> = async (app, { service }) => {
  markRoutes(app, { user: ['admin', 'manager'] })

  app.get('', {
    schema: { tags, operationId: 'listEmployees', summary: 'List employees', security: bearer, querystring: EmployeeListQuery, response: { 200: Type.Array(ref(EmployeeResponse)) } },
  }, async (req) => service.list(req.principal!, req.query))

  app.post('', {
    schema: { tags, operationId: 'createEmployee', summary: 'Create an employee (no password: send an invitation)', security: bearer, body: ref(EmployeeCreate), response: { 201: ref(EmployeeResponse) } },
  }, async (req, reply) => reply.code(201).send(await service.create(req.principal!, req.body)))

  app.get('/:employee_id', {
    schema: { tags, operationId: 'getEmployee', summary: 'Get an employee', security: bearer, params: EmployeeIdParams, response: { 200: ref(EmployeeResponse) } },
  }, async (req) => service.get(req.principal!, req.params.employee_id))

  app.put('/:employee_id', {
    schema: { tags, operationId: 'updateEmployee', summary: 'Update an employee (is_active=false deactivates)', security: bearer, params: EmployeeIdParams, body: ref(EmployeeUpdate), response: { 200: ref(EmployeeResponse) } },
  }, async (req) => service.update(req.principal!, req.params.employee_id, req.body))

  app.delete('/:employee_id', {
    schema: { tags, operationId: 'deleteEmployee', summary: 'Delete an employee nothing refers to', security: bearer, params: EmployeeIdParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.remove(req.principal!, req.params.employee_id))
}

export default routes
