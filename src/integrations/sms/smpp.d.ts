// The part of the `smpp` package (SMPP 3.4, no types of its own) this service uses.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events'
  import type { Server as NetServer } from 'node:net'

  export interface PDU {
    command: string
    command_status: number
    sequence_number: number
    [field: string]: unknown
    response: (options?: Record<string, unknown>) => PDU
  }

  export class Session extends EventEmitter {
    send (pdu: PDU, responseCallback?: (pdu: PDU) => void): boolean
    bind_transmitter (options: Record<string, unknown>, callback: (pdu: PDU) => void): void
    submit_sm (options: Record<string, unknown>, callback: (pdu: PDU) => void): void
    enquire_link (callback?: (pdu: PDU) => void): void
    unbind (callback?: (pdu: PDU) => void): void
    close (callback?: () => void): void
    destroy (callback?: () => void): void
    pause (): void
    resume (): void
  }

  export function connect (options: { host: string, port: number, tls?: boolean, connectTimeout?: number }, listener?: () => void): Session
  export function createServer (options: Record<string, unknown>, listener: (session: Session) => void): NetServer
  export const errors: Record<string, number>
  export const ESME_ROK: number
  export const ESME_RBINDFAIL: number
  export const ESME_RSYSERR: number
  export const ESME_RTHROTTLED: number
}
