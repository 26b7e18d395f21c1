import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MessageResponse } from '../../lib/common-schemas.js'
import { bearer, ref } from '../../lib/openapi.js'
import { CalendarDay, CalendarDayParams, CalendarDayUpdate, CalendarYear, CalendarYearQuery } from './schemas.js'
import type { CalendarService } from './service.js'

const tags = ['appeals']

/** Beyond the interface: the working calendar that appeal deadlines count on (DESIGN 7.3). */
const routes: FastifyPluginAsyncTypebox<{ service: CalendarService }> = async (app, { service }) => {
  app.get('', {
    config: { user: true },
    schema: { tags, operationId: 'getWorkingCalendar', summary: 'The working calendar of a year: its holidays and worked weekend days', security: bearer, querystring: CalendarYearQuery, response: { 200: ref(CalendarYear) } },
  }, async (req) => service.year(req.query.year))

  app.put('/:day', {
    config: { user: ['admin'] },
    schema: { tags, operationId: 'setCalendarDay', summary: 'Make a day a holiday or a working day (admins)', security: bearer, params: CalendarDayParams, body: ref(CalendarDayUpdate), response: { 200: ref(CalendarDay) } },
  }, async (req) => service.setDay(req.params.day, req.body))

  app.delete('/:day', {
    config: { user: ['admin'] },
    schema: { tags, operationId: 'deleteCalendarDay', summary: 'Return a day to the Monday-Friday rule (admins)', security: bearer, params: CalendarDayParams, response: { 200: ref(MessageResponse) } },
  }, async (req) => service.removeDay(req.params.day))
}

export default routes
