// The only module that reads process.env. Every variable is parsed and checked here, once;
// a bad value stops the start with one line naming the variable.

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
export type AuthMode = 'interface' | 'strict'

export interface Config {
  port: number
  host: string
  /** unset: the embedded PGlite database in dataDir */
  databaseUrl?: string
  dataDir: string
  logLevel: LogLevel
  /** unset: generated once and kept in dataDir */
  jwtSecret?: string
  accessTokenTtlSeconds: number
  adminEmail?: string
  adminPassword?: string
  smtpUrl?: string
  mailFrom: string
  publicUrl: string
  corsOrigins: string[]
  /** which proxies' X-Forwarded-For to believe (Fastify's trustProxy): false, true, a hop count, or addresses/CIDRs */
  trustProxy: boolean | number | string[]
  serviceToken?: string
  authMode: AuthMode
  cellId?: string
  calls: {
    /** transcripts are personal data: calls older than this are deleted */
    retentionDays: number
    /** how often the purge runs */
    purgeIntervalMs: number
  }
  pbx: {
    /** where generate-configs writes pjsip/queues/extensions files */
    configDir: string
    /** the realm of SIP digest credentials (Asterisk's default is `asterisk`) */
    sipRealm: string
    /** unset: no Asterisk Manager Interface; reload and status say so */
    ami?: { host: string, port: number, username: string, secret: string, timeoutMs: number }
  }
  extSync: {
    /** unset: synchronisation is `disabled` */
    url?: string
    token?: string
    timeoutMs: number
    maxAttempts: number
    /** first retry delay; doubles with every failed attempt */
    backoffMs: number
    /** how often the worker looks for due work */
    intervalMs: number
  }
}

export class ConfigError extends Error {
  constructor (variable: string, problem: string, value: string) {
    super(`Invalid configuration: ${variable} ${problem} (got ${JSON.stringify(value)})`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

function text (env: Env, name: string): string | undefined {
  const v = env[name]?.trim()
  return v === undefined || v === '' ? undefined : v
}

function integer (env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw)
  }
  return n
}

function oneOf<T extends string> (env: Env, name: string, fallback: T, allowed: readonly T[]): T {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}`, raw)
  }
  return raw as T
}

function url (env: Env, name: string, protocols: string[]): string | undefined {
  const raw = text(env, name)
  if (raw === undefined) return undefined
  let parsed: URL
  try { parsed = new URL(raw) } catch { throw new ConfigError(name, 'must be a URL', raw) }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`, raw)
  }
  return raw
}

const durationUnits: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }

/** `90`, `500ms`, `90s`, `15m`, `12h`, `7d` to seconds */
export function parseDuration (raw: string): number | undefined {
  const m = /^(\d+)\s*(ms|[smhd]?)$/.exec(raw.trim())
  if (!m) return undefined
  const seconds = Number(m[1]) * durationUnits[m[2] || 's']!
  return seconds > 0 ? seconds : undefined
}

function duration (env: Env, name: string, fallback: string): number {
  const raw = text(env, name) ?? fallback
  const seconds = parseDuration(raw)
  if (seconds === undefined) throw new ConfigError(name, 'must be a duration such as 500ms, 900s, 30m, 12h or 7d', raw)
  return seconds
}

function secret (env: Env, name: string, minLength: number): string | undefined {
  const raw = text(env, name)
  if (raw !== undefined && raw.length < minLength) {
    throw new ConfigError(name, `must be at least ${minLength} characters long`, '<redacted>')
  }
  return raw
}

function trustProxy (env: Env): Config['trustProxy'] {
  const raw = text(env, 'TRUST_PROXY')
  if (raw === undefined || raw === 'false') return false
  if (raw === 'true') return true
  if (/^\d+$/.test(raw)) return Number(raw)
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean)
  if (list.some((a) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a))) throw new ConfigError('TRUST_PROXY', 'must be true, false, a hop count or a comma-separated list of addresses/CIDRs', raw)
  return list
}

function amiConfig (env: Env): Config['pbx']['ami'] {
  const host = text(env, 'AMI_HOST')
  if (host === undefined) return undefined
  const username = text(env, 'AMI_USERNAME')
  const secret = text(env, 'AMI_SECRET')
  if (!username) throw new ConfigError('AMI_USERNAME', 'must be set when AMI_HOST is', '')
  if (!secret) throw new ConfigError('AMI_SECRET', 'must be set when AMI_HOST is', '')
  return { host, port: integer(env, 'AMI_PORT', 5038, 1, 65535), username, secret, timeoutMs: duration(env, 'AMI_TIMEOUT', '5s') * 1000 }
}

export function loadConfig (env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8000, 0, 65535)
  const host = text(env, 'HOST') ?? '0.0.0.0'
  const cellId = text(env, 'CELL_ID')
  if (cellId !== undefined && !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(cellId)) {
    throw new ConfigError('CELL_ID', 'must match [a-z0-9][a-z0-9_-]{0,62}', cellId)
  }
  const adminEmail = text(env, 'ADMIN_EMAIL')?.toLowerCase()
  if (adminEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError('ADMIN_EMAIL', 'must be an e-mail address', adminEmail)
  }
  return {
    port,
    host,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: text(env, 'DATA_DIR') ?? './data',
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    jwtSecret: secret(env, 'JWT_SECRET', 32),
    accessTokenTtlSeconds: duration(env, 'ACCESS_TOKEN_TTL', '12h'),
    adminEmail,
    adminPassword: secret(env, 'ADMIN_PASSWORD', 10),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: text(env, 'MAIL_FROM') ?? 'appeals@localhost',
    publicUrl: url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`,
    corsOrigins: (text(env, 'CORS_ORIGINS') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: trustProxy(env),
    serviceToken: secret(env, 'SERVICE_TOKEN', 16),
    authMode: oneOf(env, 'AUTH_MODE', 'interface', ['interface', 'strict'] as const),
    cellId,
    calls: {
      retentionDays: integer(env, 'CALL_RETENTION_DAYS', 365, 1, 36500),
      purgeIntervalMs: duration(env, 'CALL_PURGE_INTERVAL', '1h') * 1000,
    },
    pbx: {
      configDir: text(env, 'PBX_CONFIG_DIR') ?? `${text(env, 'DATA_DIR') ?? './data'}/asterisk`,
      sipRealm: text(env, 'PBX_SIP_REALM') ?? 'asterisk',
      ami: amiConfig(env),
    },
    extSync: {
      url: url(env, 'EXT_SYNC_URL', ['http:', 'https:']),
      token: text(env, 'EXT_SYNC_TOKEN'),
      timeoutMs: duration(env, 'EXT_SYNC_TIMEOUT', '10s') * 1000,
      maxAttempts: integer(env, 'EXT_SYNC_MAX_ATTEMPTS', 8, 1, 100),
      backoffMs: duration(env, 'EXT_SYNC_BACKOFF', '5s') * 1000,
      intervalMs: duration(env, 'EXT_SYNC_INTERVAL', '2s') * 1000,
    },
  }
}
