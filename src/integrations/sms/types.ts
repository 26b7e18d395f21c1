// What an SMS gateway is: the implementation beside this file, and index.ts re-exporting it.

/** One SMS to one phone in international form (`+77011234567`). */
export interface SmsMessage {
  to: string
  text: string
}

/** Sends SMS. One implementation: SMPP 3.4 to the operator's SMS centre (`./smpp.ts`). */
export interface SmsGateway {
  /** answers the SMS centre's message id; throws when it did not take the message */
  send: (message: SmsMessage) => Promise<string>
  close: () => Promise<void>
}
