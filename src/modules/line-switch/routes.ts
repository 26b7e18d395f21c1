import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { markRoutes } from '../../lib/auth.js'
import { bearer, ref } from '../../lib/openapi.js'
import { LineCloseRequest, LineParams, LineSwitchEvent, LineSwitchState, TenantParams } from './schemas.js'
import type { LineSwitchService } from './service.js'

const tags = ['line-switch']
const security = bearer

/** An organization's lines at their switch (an admin or the organization's manager), and the lines closed now (supervisors). */
const routes: FastifyPluginAsyncTypebox<{ service: LineSwitchService }> = async (app, { service }) => {
  markRoutes(app, { user: ['admin', 'manager'], organization: 'tenant_id' })
  app.get('/api/organizations/:tenant_id/line-switches', {
    schema: { tags, security, operationId: 'listLineSwitches', summary: 'Each line of the organization: open, or closed at the switch (why, until when, by whom)', params: TenantParams, response: { 200: Type.Array(ref(LineSwitchState)) } },
  }, async (req) => service.list(req.principal!, req.params.tenant_id))
  app.post('/api/organizations/:tenant_id/lines/:line_id/close', {
    schema: { tags, security, operationId: 'closeLine', summary: 'Close a line now, with its announcement, until a time or until opened (in Asterisk on the next call; 503 without it)', params: LineParams, body: ref(LineCloseRequest), response: { 200: ref(LineSwitchState) } },
  }, async (req) => service.close(req.principal!, req.params.tenant_id, req.params.line_id, req.body))
  app.post('/api/organizations/:tenant_id/lines/:line_id/open', {
    schema: { tags, security, operationId: 'openLine', summary: 'Open a line closed at the switch (503 without Asterisk)', params: LineParams, response: { 200: ref(LineSwitchState) } },
  }, async (req) => service.open(req.principal!, req.params.tenant_id, req.params.line_id))
  app.get('/api/organizations/:tenant_id/lines/:line_id/switches', {
    schema: { tags, security, operationId: 'lineSwitchHistory', summary: 'Who closed and opened the line, and when (the latest 50)', params: LineParams, response: { 200: Type.Array(ref(LineSwitchEvent)) } },
  }, async (req) => service.history(req.principal!, req.params.tenant_id, req.params.line_id))
  app.get('/api/line-switches/closed', {
    schema: { tags, security, operationId: 'closedLines', summary: 'The lines closed at the switch now (an admin: all; a manager: its organization\'s)', response: { 200: Type.Array(ref(LineSwitchState)) } },
  }, async (req) => service.closed(req.principal!))
}

export default routes
