import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError, RequestValidationError, type FieldError } from './errors.js'
import { discardRequestBody, sentBody } from './http.js'
import { toFieldErrors } from './validators.js'

interface DriverError { code?: string, constraint?: string, table?: string, detail?: string }

/** PostgreSQL's error (code 23505...) whether drizzle wrapped it or not. */
function driverError (err: unknown): DriverError | undefined {
  for (let e = err as { code?: unknown, cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e as DriverError
  }
  return undefined
}

/**
 * The database is down, restarting, refusing or not answering: the request may succeed later.
 * SQLSTATE 53300 too many connections, 57014 a statement cancelled (its time-out), 57P01-57P03 the
 * server shutting down, crashed or starting, class 08 the connection; 55000 only of the kind a
 * database closed for maintenance gives (`ALLOW_CONNECTIONS false`), the class being wider.
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', '53300', '57014', '57P01', '57P02', '57P03'])
const UNAVAILABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection error|Query read timeout|Client was closed/i
const NOT_ACCEPTING_CONNECTIONS = /is not currently accepting connections/i

const unavailableCode = (code: string, message: unknown) =>
  UNAVAILABLE_CODES.has(code) || code.startsWith('08') || (code === '55000' && typeof message === 'string' && NOT_ACCEPTING_CONNECTIONS.test(message))

/** a failed query (drizzle names its SQL; PostgreSQL its SQLSTATE) whose cause is the connection, not the statement */
export function databaseUnavailable (err: unknown): boolean {
  let fromQuery = false
  let connection = false
  for (let e = err as { code?: unknown, message?: unknown, cause?: unknown, query?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.query === 'string' || (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))) fromQuery = true
    if (typeof e.code === 'string' && unavailableCode(e.code, e.message)) connection = true
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) connection = true
  }
  // an SMTP or AMI peer that refuses is not the database
  return fromQuery && connection
}

/** how much of a body over the limit is read (and dropped) so that its sender can read the 413 */
const OVERSIZED_BODY_READ = { maxBytes: 64 * 1024 * 1024, maxMs: 15_000 }

const humanTable = (table?: string) => (table ?? 'other rows').replace(/_/g, ' ')

function duplicateDetail (e: DriverError): string {
  const m = /^Key \((.+)\)=\((.*)\) already exists/.exec(e.detail ?? '')
  return m ? `${m[1]} '${m[2]}' already exists` : `Duplicate value (${e.constraint ?? 'unique constraint'})`
}

function invalidJson (err: FastifyError): FieldError[] {
  return [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: err.message } }]
}

/**
 * The one error handler of the service. Every error body is FastAPI's: `{"detail": ...}`;
 * validation failures are 422 with a list of `{type, loc, msg, input}`.
 */
export function registerErrorHandler (app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err.validation) {
      const sent = (err.validationContext ?? 'body') === 'body' ? sentBody(req) : undefined
      return reply.code(422).send({ detail: toFieldErrors(err.validation as never, err.validationContext, sent) })
    }
    if (err instanceof RequestValidationError) return reply.code(422).send({ detail: err.errors })
    if (err instanceof AppError) {
      // a refusal caused by a failure elsewhere (Asterisk, SMTP) keeps that failure's stack in the log
      if (err.cause !== undefined) req.log.warn({ err: err.cause, code: err.code }, err.message)
      return reply.code(err.statusCode).headers(err.headers).send({ detail: err.message, code: err.code, ...err.extra })
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err.statusCode === 400 && err instanceof SyntaxError)) {
      return reply.code(422).send({ detail: invalidJson(err) })
    }
    if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(422).send({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] })
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // answered once the upload is through (Fastify closes the connection after it)
      return discardRequestBody(req.raw, OVERSIZED_BODY_READ).then(() => reply.code(413).send({ detail: 'Request body too large' }))
    }
    const pgError = driverError(err)
    if (pgError?.code === '23505') {
      return reply.code(409).send({ detail: duplicateDetail(pgError), code: 'conflict' })
    }
    // 23503: a NO ACTION foreign key; 23001: a RESTRICT one (`onDelete: 'restrict'`)
    if (pgError?.code === '23503' || pgError?.code === '23001') {
      return reply.code(409).send({ detail: `Still referenced by ${humanTable(pgError.table)}`, code: 'still_referenced' })
    }
    if (databaseUnavailable(err)) {
      req.log.warn({ err: (err as { cause?: unknown }).cause ?? err }, 'database unavailable')
      return reply.code(503).header('retry-after', '5').send({ detail: 'The database is unavailable; try again shortly', code: 'database_unavailable' })
    }
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ detail: err.message })
    }
    // a failed query's message carries its parameters (password hashes, personal data): log the cause and the SQL only
    const failedQuery = err as FastifyError & { query?: string, params?: unknown }
    if (failedQuery.query !== undefined) req.log.error({ err: err.cause, query: failedQuery.query }, 'database error')
    else req.log.error({ err }, 'unhandled error')
    return reply.code(500).send({ detail: 'Internal Server Error' })
  })
}
