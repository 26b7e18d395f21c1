import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bearer, ref } from '../../lib/openapi.js'
import { exportStream, sendExport } from '../../lib/table-export.js'
import { callsTable, kpiFiles } from './export.js'
import { LineBoard, LineCallExportQuery, LineCallPage, LineCallParams, LineCallQuery, LineCallView, LineKpiExportQuery, LineKpiQuery, LineKpis, ReviewBody, ReviewQuery } from './schemas.js'
import type { LineCallService } from './service.js'

const tags = ['line-calls']
/** an export of calls holds at most this many (a month of a busy line streams in bounded memory) */
const EXPORT_MAX_ROWS = 200_000
const EXPORT_BATCH = 2000
const security = bearer

/** The line's calls from Asterisk's events (beyond the interface): admins see all, managers their organization's. */
const routes: FastifyPluginAsyncTypebox<{ service: LineCallService, timeZone: string }> = async (app, { service, timeZone }) => {
  markRoutes(app, { user: true })
  app.get('', {
    config: { personalData: { subject: 'line_call', ids: (page: { items: Array<{ linkedid: string }> }) => page.items.map((c) => c.linkedid) } },
    schema: { tags, security, operationId: 'listLineCalls', summary: 'The line\'s calls, newest first, as Asterisk\'s events told them (calls in progress too)', querystring: LineCallQuery, response: { 200: ref(LineCallPage) } },
  }, async (req) => service.list(req.principal!, req.query))
  app.get('/kpis', {
    schema: { tags, security, operationId: 'lineKpis', summary: 'The queues\' figures of a period (default: today): per queue, 30-minute interval, day and operator, after Asterisk\'s definitions', querystring: LineKpiQuery, response: { 200: ref(LineKpis) } },
  }, async (req) => service.kpis(req.principal!, req.query))
  app.get('/kpis/export', {
    schema: { tags, security, operationId: 'exportLineKpis', summary: 'The queues\' figures of a period as a CSV or XLSX file: a row per day, queue, 30-minute interval or operator (`by`)', querystring: LineKpiExportQuery },
  }, async (req, reply) => {
    const { by, format, lang, ...query } = req.query
    const kpis = await service.kpis(req.principal!, query, { operators: by === 'operator' })
    const file = kpiFiles[by](kpis)
    return sendExport(reply, { name: `line-${by}-${kpis.date_from}_${kpis.date_to}`, format, rows: file.rows, truncated: false, body: file.stream(format, lang, kpis.time_zone) })
  })
  app.get('/export', {
    config: { personalData: { subject: 'line_call', export: true } },
    schema: { tags, security, operationId: 'exportLineCalls', summary: `The calls that began in a period (default: today; at most 31 days) as a CSV or XLSX file, newest first, at most ${EXPORT_MAX_ROWS} rows, streamed; X-Export-Rows says how many, X-Export-Truncated: true that the period held more`, querystring: LineCallExportQuery },
  }, async (req, reply) => {
    const { format, lang, ...query } = req.query
    const found = await service.exportCalls(req.principal!, query, EXPORT_MAX_ROWS, EXPORT_BATCH)
    return sendExport(reply, {
      name: `line-calls-${found.period.from}_${found.period.to}`, format, rows: found.rows, truncated: found.truncated,
      body: exportStream(found.batches, callsTable, format, lang, timeZone),
    })
  })
  app.get('/board', {
    // the callers waiting are shown with their numbers
    config: { personalData: { subject: 'line_call', ids: (board: { waiting: Array<{ linkedid: string }> }) => board.waiting.map((w) => w.linkedid), rowsOnly: true } },
    schema: { tags, security, operationId: 'lineBoard', summary: 'The live board: today\'s figures per queue, the callers waiting now and the agents\' states (the console reads it again on each line.changed)', response: { 200: ref(LineBoard) } },
  }, async (req) => service.board(req.principal!))
  app.get('/reviews', {
    config: { personalData: { subject: 'line_call', ids: (page: { items: Array<{ linkedid: string }> }) => page.items.map((c) => c.linkedid) } },
    schema: { tags, security, operationId: 'lineCallsForReview', summary: 'The calls the citizen scored 1 or 2 in the rating menu, latest first, until a supervisor reviews each', querystring: ReviewQuery, response: { 200: ref(LineCallPage) } },
  }, async (req) => service.awaitingReview(req.principal!, req.query))
  app.post('/:linkedid/review', {
    config: { user: ['admin', 'manager'] },
    schema: { tags, security, operationId: 'reviewLineCall', summary: 'A low-scored call reviewed by a supervisor, with a comment: it leaves the review list (403 not_your_review: a call passed on to another organization, whose review it is; 409 not_for_review, already_reviewed)', params: LineCallParams, body: ref(ReviewBody), response: { 200: ref(LineCallView) } },
  }, async (req) => service.review(req.principal!, req.params.linkedid, req.body.comment))
  app.get('/:linkedid', {
    config: { personalData: { subject: 'line_call', ids: (call: { linkedid: string }) => [call.linkedid] } },
    schema: { tags, security, operationId: 'getLineCall', summary: 'One call by its Linkedid', params: LineCallParams, response: { 200: ref(LineCallView) } },
  }, async (req) => service.get(req.principal!, req.params.linkedid))
}

export default routes
