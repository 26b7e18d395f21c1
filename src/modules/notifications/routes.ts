import { markRoutes } from '../../lib/auth.js'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { bearer, ref } from '../../lib/openapi.js'
import { Notification, NotificationIdParams, NotificationListQuery, NotificationPage } from './schemas.js'
import type { NotificationService } from './service.js'

const tags = ['appeals']

/** Beyond the interface: the notification outbox (DESIGN 7.4), for admins. */
const routes: FastifyPluginAsyncTypebox<{ service: NotificationService }> = async (app, { service }) => {
  markRoutes(app, { user: ['admin'] })

  app.get('', {
    schema: { tags, operationId: 'listNotifications', summary: 'The notification outbox, newest first (admins)', security: bearer, querystring: NotificationListQuery, response: { 200: ref(NotificationPage) } },
  }, async (req) => service.list(req.query))

  app.post('/:notification_id/retry', {
    schema: { tags, operationId: 'retryNotification', summary: 'Send a waiting or failed notification again now (admins)', security: bearer, params: NotificationIdParams, response: { 200: ref(Notification) } },
  }, async (req) => service.retry(req.params.notification_id))
}

export default routes
