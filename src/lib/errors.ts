// Typed errors thrown by services and guards; the one error handler turns them into responses.

export class AppError extends Error {
  constructor (
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** fields of the body beside `detail` and `code` (what a refusal is about, for the console to name) */
    readonly extra: Record<string, unknown> = {}
  ) {
    super(message)
    this.name = new.target.name
  }
}

export class NotFoundError extends AppError {
  constructor (entity: string) { super(404, 'not_found', `${entity} not found`) }
}

export class ConflictError extends AppError {
  constructor (message: string, code = 'conflict', extra: Record<string, unknown> = {}) { super(409, code, message, {}, extra) }
}

export class UnauthorizedError extends AppError {
  constructor (message = 'Not authenticated') {
    super(401, 'unauthorized', message, { 'www-authenticate': 'Bearer' })
  }
}

export class ForbiddenError extends AppError {
  constructor (message = 'Not enough permissions', code = 'forbidden') { super(403, code, message) }
}

export class TooManyRequestsError extends AppError {
  constructor (message: string, retryAfterSeconds: number) {
    super(429, 'too_many_requests', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
  }
}

export class ServiceUnavailableError extends AppError {
  /** `code`: what is unavailable (default `service_unavailable`); `retryAfterSeconds`: when to ask again (Retry-After); `cause`: what failed, for the log */
  constructor (message: string, { code = 'service_unavailable', retryAfterSeconds, cause }: { code?: string, retryAfterSeconds?: number, cause?: unknown } = {}) {
    super(503, code, message, retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
    if (cause !== undefined) this.cause = cause
  }
}

/** the PBX as a refusal names it: no AMI configured, or Asterisk not answering (the console says each in its words) */
export const PBX_NOT_CONFIGURED = { code: 'pbx_not_configured' } as const
export const pbxUnreachable = (cause: unknown) => ({ code: 'pbx_unreachable', cause })

/** One entry of a FastAPI 422 body. */
export interface FieldError {
  type: string
  loc: (string | number)[]
  msg: string
  input?: unknown
  ctx?: Record<string, unknown>
}

/** A 422 raised by a rule that a schema cannot express (a reference to a missing row, a bad check digit). */
export class RequestValidationError extends AppError {
  constructor (readonly errors: FieldError[]) {
    super(422, 'validation_error', errors.map((e) => `${e.loc.join('.')}: ${e.msg}`).join('; '))
  }

  static field (loc: (string | number)[], msg: string, input?: unknown, type = 'value_error'): RequestValidationError {
    return new RequestValidationError([problem(loc, msg, input, type)])
  }
}

/** one field's problem, as FastAPI says it */
export const problem = (loc: (string | number)[], msg: string, input?: unknown, type = 'value_error'): FieldError => ({ type, loc, msg, input })

/** a 422 with every problem found, when there is any */
export function invalid (problems: FieldError[]): void {
  if (problems.length > 0) throw new RequestValidationError(problems)
}
