export type { SmsMessage, SmsGateway } from './types.js'
export { createSmppGateway } from './smpp-gateway.js'
