import { Type, type Static } from 'typebox'
import { notificationChannels, notificationKinds, notificationStatuses } from '../../db/schema/index.js'
import { Id, Nullable, OneOf, Timestamp } from '../../lib/common-schemas.js'
import { ref } from '../../lib/openapi.js'

export const Notification = Type.Object({
  id: Type.Integer(),
  idempotency_key: Type.String(),
  channel: OneOf(notificationChannels),
  kind: OneOf(notificationKinds, { description: 'answer, redirect: to the citizen; assign, overdue: to the executor\'s managers' }),
  recipient: Type.String({ description: 'an e-mail address or a phone in international form' }),
  subject: Nullable(Type.String()),
  body: Type.String(),
  appeal_id: Nullable(Type.Integer()),
  status: OneOf(notificationStatuses, { description: 'pending: waiting or being retried; failed: given up after the last attempt (retry sends it again)' }),
  attempts: Type.Integer(),
  next_attempt_at: Timestamp(),
  last_error: Nullable(Type.String()),
  provider_id: Nullable(Type.String({ description: 'the Message-ID of a mail, the SMS centre\'s message_id of an SMS' })),
  created_at: Timestamp(),
  sent_at: Nullable(Timestamp()),
}, { $id: 'Notification' })

export const NotificationPage = Type.Object({
  items: Type.Array(ref(Notification)),
  next_cursor: Nullable(Type.Integer({ description: 'pass as `before_id` for the next page' })),
  counts: Type.Object({ pending: Type.Integer(), sent: Type.Integer(), failed: Type.Integer() }),
  channels: Type.Array(OneOf(notificationChannels), { description: 'the channels this instance delivers; rows of others wait' }),
}, { $id: 'NotificationPage' })

export const NotificationListQuery = Type.Object({
  status: Type.Optional(OneOf(notificationStatuses)),
  channel: Type.Optional(OneOf(notificationChannels)),
  appeal_id: Type.Optional(Id()),
  before_id: Type.Optional(Id()),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
})

export const NotificationIdParams = Type.Object({ notification_id: Id() })

export type Notification = Static<typeof Notification>
export type NotificationListQuery = Static<typeof NotificationListQuery>

export const schemas = [Notification, NotificationPage]
