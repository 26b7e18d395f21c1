import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bearer, ref } from '../../lib/openapi.js'
import { exportStream, sendExport, type ExportTable } from '../../lib/table-export.js'
import { localDate } from '../calendar/index.js'
import type { AccessRecord } from './repo.js'
import { AccessExportQuery, AccessPage, AccessQuery, ChainCheck } from './schemas.js'
import type { AuditService } from './service.js'

const tags = ['audit']
const EXPORT_BATCH = 1000

const AUDIT_TABLE: ExportTable<AccessRecord> = {
  sheet: { ru: 'Доступ к персональным данным', kk: 'Дербес деректерге қол жеткізу' },
  columns: [
    { ru: 'Номер записи', kk: 'Жазба нөмірі', width: 12, value: (r) => r.id },
    { ru: 'Время', kk: 'Уақыты', width: 17, value: (r, at) => at(r.at) },
    { ru: 'Сотрудник', kk: 'Қызметкер', width: 28, value: (r) => r.actor_email ?? '' },
    { ru: 'Роль', kk: 'Рөлі', width: 12, value: (r) => r.actor_role ?? '' },
    { ru: 'IP-адрес', kk: 'IP мекенжайы', width: 16, value: (r) => r.ip ?? '' },
    { ru: 'Действие', kk: 'Әрекет', width: 10, value: (r, _at, l) => (r.action === 'export' ? { ru: 'выгрузка', kk: 'жүктеу' } : { ru: 'просмотр', kk: 'қарау' })[l] },
    { ru: 'Что показано', kk: 'Не көрсетілді', width: 14, value: (r) => r.subject },
    { ru: 'Записи', kk: 'Жазбалар', width: 30, value: (r) => r.subject_ids.join(' ') },
    { ru: 'Запрос', kk: 'Сұрау', width: 40, value: (r) => `${r.route}${r.detail ? ` ${JSON.stringify(r.detail)}` : ''}` },
    { ru: 'Идентификатор запроса', kk: 'Сұрау идентификаторы', width: 24, value: (r) => r.request_id ?? '' },
    { ru: 'Хеш', kk: 'Хеш', width: 66, value: (r) => r.hash },
  ],
}

/** Beyond the interface: who was shown whose personal data, for the data protection officers. */
const routes: FastifyPluginAsyncTypebox<{ service: AuditService, timeZone: string, exportMaxRows: number }> = async (app, { service, timeZone, exportMaxRows }) => {
  markRoutes(app, { user: true })

  app.get('', {
    schema: { tags, operationId: 'personalDataAccess', summary: 'Who was shown which citizen\'s data, newest first (data protection officers)', security: bearer, querystring: AccessQuery, response: { 200: ref(AccessPage) } },
  }, async (req) => service.search(req.principal!, req.query))

  app.get('/export', {
    schema: { tags, operationId: 'exportPersonalDataAccess', summary: `The filtered records as a CSV or XLSX file, newest first, at most ${exportMaxRows} rows (data protection officers)`, security: bearer, querystring: AccessExportQuery },
  }, async (req, reply) => {
    const { format, lang } = req.query
    const found = await service.exportBatches(req.principal!, req.query, exportMaxRows, EXPORT_BATCH)
    return sendExport(reply, {
      name: `personal-data-access-${localDate(timeZone, new Date())}`, format, rows: found.rows, truncated: found.truncated,
      body: exportStream(found.batches, AUDIT_TABLE, format, lang, timeZone),
    })
  })

  app.get('/check', {
    schema: { tags, operationId: 'checkPersonalDataAccess', summary: 'Checks the records\' chain: a record changed, or records removed, outside the service (data protection officers)', security: bearer, response: { 200: ref(ChainCheck) } },
  }, async (req) => service.check(req.principal!))
}

export default routes
