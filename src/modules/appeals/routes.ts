import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bearer, ref } from '../../lib/openapi.js'
import {
  AppealAnswer, AppealAssign, AppealBulkAssign, AppealBulkResult, AppealCreate, AppealInbox, AppealInboxQuery, AppealDetail, AppealExtend, AppealIdParams, AppealListQuery, AppealPage, AppealReason,
  AppealExportQuery, AppealRedirect, AppealReject, AppealResponse, AppealStats, AppealStatsQuery, AppealSuggestBody, AppealSuggestion, AppealTranscript, AppealWorkplace,
} from './schemas.js'
import { localDate } from '../calendar/index.js'
import { exportStream, sendExport } from '../../lib/table-export.js'
import { appealsTable } from './export.js'
import type { AppealAssistant } from './assistant.js'
import type { AppealService } from './service.js'

const EXPORT_BATCH = 1000
const tags = ['appeals']

/** Beyond the interface: the register of citizens' appeals (DESIGN 7). */
/** `exportMaxRows`: an export holds at most this many rows (APPEAL_EXPORT_MAX_ROWS; 100,000 stream in bounded memory) */
const routes: FastifyPluginAsyncTypebox<{ service: AppealService, assistant: AppealAssistant, timeZone: string, exportMaxRows: number }> = async (app, { service, assistant, timeZone, exportMaxRows }) => {
  markRoutes(app, { user: true })
  const one = { security: bearer, tags, params: AppealIdParams, response: { 200: ref(AppealResponse) } }

  app.post('', {
    schema: { tags, operationId: 'registerAppeal', summary: 'Register an appeal (call-centre staff)', security: bearer, body: ref(AppealCreate), response: { 201: ref(AppealResponse) } },
  }, async (req, reply) => reply.code(201).send(await service.register(req.principal!, req.body)))

  app.get('', {
    config: { personalData: { subject: 'appeal', ids: (page: { items: Array<{ id: number }> }) => page.items.map((a) => a.id) } },
    schema: { tags, operationId: 'listAppeals', summary: 'Appeals, newest first, filtered; keyset pages', security: bearer, querystring: AppealListQuery, response: { 200: ref(AppealPage) } },
  }, async (req) => service.list(req.principal!, req.query))

  app.get('/export', {
    config: { personalData: { subject: 'appeal', export: true } },
    schema: {
      tags,
      operationId: 'exportAppeals',
      summary: `The filtered list as a CSV or XLSX file, newest first, at most ${exportMaxRows} rows, streamed; X-Export-Rows says how many, X-Export-Truncated: true that the filter matched more`,
      security: bearer,
      querystring: AppealExportQuery,
    },
  }, async (req, reply) => {
    const { format, lang, ...filters } = req.query
    const found = await service.exportBatches(req.principal!, filters, exportMaxRows, EXPORT_BATCH)
    return sendExport(reply, {
      name: `appeals-${localDate(timeZone, new Date())}`, format, rows: found.rows, truncated: found.truncated,
      body: exportStream(found.batches, appealsTable, format, lang, timeZone),
    })
  })

  app.get('/workplace', {
    schema: { tags, operationId: 'appealWorkplace', summary: 'What the register is to the user: the centre\'s staff register and see all; an executor\'s staff see their organization\'s (the console lands each on its work)', security: bearer, response: { 200: ref(AppealWorkplace) } },
  }, async (req) => service.workplace(req.principal!))

  app.get('/inbox', {
    config: { personalData: { subject: 'appeal', ids: (inbox: { items: Array<{ id: number }> }) => inbox.items.map((a) => a.id) } },
    schema: { tags, operationId: 'appealInbox', summary: 'An executor\'s inbox: its appeals in hand counted by state, and a page of one view, the nearest answer deadline first', security: bearer, querystring: AppealInboxQuery, response: { 200: ref(AppealInbox) } },
  }, async (req) => service.inbox(req.principal!, req.query))

  app.post('/bulk-assign', {
    schema: { tags, operationId: 'bulkAssignAppeals', summary: 'Assign several appeals at once (a manager to one of its employees; the centre to an executor): all or none', security: bearer, body: ref(AppealBulkAssign), response: { 200: ref(AppealBulkResult) } },
  }, async (req) => service.bulkAssign(req.principal!, req.body))

  app.get('/stats', {
    schema: { tags, operationId: 'appealStatistics', summary: 'Statistics of a period: received, answered on time, closed, overdue, median time to close; by day, region, executor, classification', security: bearer, querystring: AppealStatsQuery, response: { 200: ref(AppealStats) } },
  }, async (req) => service.stats(req.principal!, req.query))

  app.get('/:appeal_id', {
    config: { personalData: { subject: 'appeal', ids: (appeal: { id: number }) => [appeal.id] } },
    schema: { tags, operationId: 'getAppeal', summary: 'An appeal with its history', security: bearer, params: AppealIdParams, response: { 200: ref(AppealDetail) } },
  }, async (req) => service.get(req.principal!, req.params.appeal_id))

  app.get('/:appeal_id/transcript', {
    config: { personalData: { subject: 'transcript', ids: (_t: unknown, params: { appeal_id: number }) => [params.appeal_id] } },
    schema: { tags, operationId: 'appealTranscript', summary: 'The transcript of the call the appeal was registered from (404 when it came from no call)', security: bearer, params: AppealIdParams, response: { 200: ref(AppealTranscript) } },
  }, async (req) => service.transcript(req.principal!, req.params.appeal_id))

  app.post('/:appeal_id/suggest', {
    schema: {
      tags, operationId: 'suggestForAppeal', summary: 'LLM summary and classification suggestion for the appeal\'s text or its call transcript', security: bearer,
      params: AppealIdParams, body: ref(AppealSuggestBody), response: { 200: ref(AppealSuggestion) },
    },
  }, async (req) => assistant.suggest(req.principal!, req.params.appeal_id, req.body ?? {}))

  app.post('/:appeal_id/assign', {
    schema: { ...one, operationId: 'assignAppeal', summary: 'Assign to an executor organization (and employee)', body: ref(AppealAssign) },
  }, async (req) => service.assign(req.principal!, req.params.appeal_id, req.body))

  app.post('/:appeal_id/take', {
    schema: { ...one, operationId: 'takeAppeal', summary: 'Take into work (executor staff)' },
  }, async (req) => service.take(req.principal!, req.params.appeal_id))

  app.post('/:appeal_id/redirect', {
    schema: { ...one, operationId: 'redirectAppeal', summary: 'Redirect to another executor, with a reason (deadlines kept)', body: ref(AppealRedirect) },
  }, async (req) => service.redirect(req.principal!, req.params.appeal_id, req.body))

  app.post('/:appeal_id/extend', {
    schema: { ...one, operationId: 'extendAppeal', summary: 'Extend the answer deadline once, with a reason (executor manager)', body: ref(AppealExtend) },
  }, async (req) => service.extend(req.principal!, req.params.appeal_id, req.body))

  app.post('/:appeal_id/answer', {
    schema: { ...one, operationId: 'answerAppeal', summary: 'Answer (executor staff)', body: ref(AppealAnswer) },
  }, async (req) => service.answer(req.principal!, req.params.appeal_id, req.body))

  app.post('/:appeal_id/return', {
    schema: { ...one, operationId: 'returnAppeal', summary: 'Return an answer for rework, with a reason (centre staff)', body: ref(AppealReason) },
  }, async (req) => service.return(req.principal!, req.params.appeal_id, req.body.reason))

  app.post('/:appeal_id/close', {
    schema: { ...one, operationId: 'closeAppeal', summary: 'Close an answered appeal (centre staff)' },
  }, async (req) => service.close(req.principal!, req.params.appeal_id))

  app.post('/:appeal_id/reject', {
    schema: { ...one, operationId: 'rejectAppeal', summary: 'Reject: not an appeal, a duplicate, out of competence (centre staff)', body: ref(AppealReject) },
  }, async (req) => service.reject(req.principal!, req.params.appeal_id, req.body))
}

export default routes
