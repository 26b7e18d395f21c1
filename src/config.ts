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
    /** how many backups of earlier configuration sets generate-configs keeps */
    backupRetention: number
    /** the realm of SIP digest credentials (Asterisk's default is `asterisk`) */
    sipRealm: string
    /** unset: no Asterisk Manager Interface; reload and status say so */
    ami?: { host: string, port: number, username: string, secret: string, timeoutMs: number }
  }
  llm: LlmConfig
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

export type LlmProviderKind = 'openai-compatible' | 'anthropic'

export interface LlmProviderConfig {
  name: string
  kind: LlmProviderKind
  baseUrl: string
  apiKey?: string
  /** the model used when a request names none */
  model: string
  /** every model a request may name (the default model first) */
  models: string[]
  timeoutMs: number
  /** openai-compatible only: sends stream_options.include_usage (some compatible servers refuse it) */
  streamOptions: boolean
  /** runs outside the centre: personal data is redacted before a request leaves (unless LLM_REDACT_PII says otherwise) */
  external: boolean
}

export interface LlmConfig {
  providers: LlmProviderConfig[]
  defaultProvider?: string
  /** providers tried in this order when the chosen one fails */
  fallback: string[]
  /** unset: redact for external providers only */
  redactPii?: boolean
  logPrompts: boolean
  maxRetries: number
  backoffMs: number
  retryAfterCapMs: number
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

function flag (env: Env, name: string): boolean | undefined {
  const raw = text(env, name)
  if (raw === undefined) return undefined
  if (raw === 'true' || raw === '1') return true
  if (raw === 'false' || raw === '0') return false
  throw new ConfigError(name, 'must be true or false', raw)
}

/** one provider from LLM_PROVIDERS (JSON) or from LLM_<NAME>_* variables; `where` names the source in errors */
function llmProvider (raw: Record<string, unknown>, where: (field: string) => string): LlmProviderConfig {
  const field = (key: string): string | undefined => {
    const v = raw[key]
    if (v === undefined || v === null || v === '') return undefined
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ConfigError(where(key), 'must be a string', JSON.stringify(v))
    return String(v).trim()
  }
  const name = field('name') ?? ''
  if (!/^[a-z0-9][a-z0-9_-]{0,31}$/.test(name)) throw new ConfigError(where('name'), 'must match [a-z0-9][a-z0-9_-]{0,31}', name)
  const kind = field('kind') ?? 'openai-compatible'
  if (kind !== 'openai-compatible' && kind !== 'anthropic') throw new ConfigError(where('kind'), 'must be openai-compatible or anthropic', kind)
  // keyed by the variable's own name, so that the shared parsers name it in their errors
  const local: Env = Object.fromEntries(['base_url', 'timeout', 'stream_options', 'external'].map((k) => [where(k), field(k)]))
  const baseUrl = url(local, where('base_url'), ['http:', 'https:'])
  if (!baseUrl) throw new ConfigError(where('base_url'), 'must be set', '')
  const model = field('model')
  if (!model) throw new ConfigError(where('model'), 'must be set', '')
  if (kind === 'anthropic' && !field('api_key')) throw new ConfigError(where('api_key'), 'must be set for an anthropic provider', '')
  const listed = raw.models
  const models = Array.isArray(listed) ? listed.map(String) : (field('models') ?? '').split(',')
  return {
    name,
    kind,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: field('api_key'),
    model,
    models: [...new Set([model, ...models.map((m) => m.trim()).filter(Boolean)])],
    timeoutMs: duration(local, where('timeout'), '60s') * 1000,
    streamOptions: flag(local, where('stream_options')) ?? kind === 'openai-compatible',
    external: flag(local, where('external')) ?? true,
  }
}

function llmConfig (env: Env): LlmConfig {
  const providers: LlmProviderConfig[] = []
  const json = text(env, 'LLM_PROVIDERS')
  if (json !== undefined) {
    let parsed: unknown
    try { parsed = JSON.parse(json) } catch { throw new ConfigError('LLM_PROVIDERS', 'must be a JSON array of providers', '<unparsable>') }
    if (!Array.isArray(parsed)) throw new ConfigError('LLM_PROVIDERS', 'must be a JSON array of providers', '<not an array>')
    parsed.forEach((p, i) => {
      if (typeof p !== 'object' || p === null || Array.isArray(p)) throw new ConfigError(`LLM_PROVIDERS[${i}]`, 'must be an object', JSON.stringify(p))
      providers.push(llmProvider(p as Record<string, unknown>, (f) => `LLM_PROVIDERS[${i}].${f}`))
    })
  }
  // LLM_<NAME>_BASE_URL announces a provider configured by variables
  for (const key of Object.keys(env).sort()) {
    const m = /^LLM_([A-Z0-9]+)_BASE_URL$/.exec(key)
    if (!m) continue
    const prefix = `LLM_${m[1]}_`
    const fields = Object.fromEntries(['kind', 'base_url', 'api_key', 'model', 'models', 'timeout', 'stream_options', 'external'].map((f) => [f, env[prefix + f.toUpperCase()]]))
    providers.push(llmProvider({ name: m[1]!.toLowerCase(), ...fields }, (f) => prefix + f.toUpperCase()))
  }
  const names = providers.map((p) => p.name)
  const duplicate = names.find((n, i) => names.indexOf(n) !== i)
  if (duplicate) throw new ConfigError('LLM_PROVIDERS', 'names a provider twice', duplicate)
  const known = (variable: string, name: string) => {
    if (!names.includes(name)) throw new ConfigError(variable, `must name a configured provider (${names.join(', ') || 'none configured'})`, name)
    return name
  }
  const chosen = text(env, 'LLM_DEFAULT_PROVIDER')
  return {
    providers,
    defaultProvider: chosen !== undefined ? known('LLM_DEFAULT_PROVIDER', chosen) : names[0],
    fallback: (text(env, 'LLM_FALLBACK') ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((n) => known('LLM_FALLBACK', n)),
    redactPii: flag(env, 'LLM_REDACT_PII'),
    logPrompts: flag(env, 'LLM_LOG_PROMPTS') ?? false,
    maxRetries: integer(env, 'LLM_MAX_RETRIES', 2, 0, 10),
    backoffMs: duration(env, 'LLM_BACKOFF', '500ms') * 1000,
    retryAfterCapMs: duration(env, 'LLM_RETRY_AFTER_CAP', '20s') * 1000,
  }
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
      backupRetention: integer(env, 'PBX_BACKUP_RETENTION', 20, 1, 10_000),
      sipRealm: text(env, 'PBX_SIP_REALM') ?? 'asterisk',
      ami: amiConfig(env),
    },
    llm: llmConfig(env),
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
