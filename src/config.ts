// The only module that reads process.env. Every variable is checked here, once, against the schema
// of config/env-schema.ts; a bad value stops the start with one line naming the variable.
import { resolve } from 'node:path'
import type { ValidateFunction } from 'ajv'
import type { TObject, TSchema } from 'typebox'
import { makeAjv } from './lib/validators.js'
import type { PbxNetwork } from './integrations/asterisk/transports.js'
import { EnvSchema, LlmProviderSchema, parseDuration, type EnvValues, type LlmProviderValues } from './config/env-schema.js'

export { parseDuration } from './config/env-schema.js'

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
export type AuthMode = 'interface' | 'strict'

export interface Config {
  port: number
  host: string
  /** OTEL_EXPORTER_OTLP_ENDPOINT/OTEL_SERVICE_NAME: traces over OTLP; unset: none */
  tracing?: { endpoint: string, serviceName: string }
  /** METRICS_PORT/METRICS_HOST: Prometheus' listener, apart from the public one; unset: none */
  metrics?: { host: string, port: number }
  /** unset: the embedded PGlite database in dataDir */
  databaseUrl?: string
  dataDir: string
  /** SEED_ON_FIRST_START: the reference data loaded at the first start on a database without any */
  seedOnFirstStart: boolean
  logLevel: LogLevel
  /** LOG_FORMAT: readable lines on a terminal, JSON elsewhere */
  logFormat: 'auto' | 'json' | 'readable'
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
  /** answers kept per reference topic (0: none) */
  referenceCacheVariants: number
  /** the audit of personal data (modules/audit) */
  audit: { enabled: boolean, key?: string, retentionDays: number }
  calls: {
    /** transcripts are personal data: calls older than this are deleted */
    retentionDays: number
    /** how often the purge runs */
    purgeIntervalMs: number
  }
  appeals: {
    /** the IANA zone the centre works in */
    timeZone: string
    /** the working day, in minutes from midnight */
    workStartMinute: number
    workEndMinute: number
    closeDays: number
    maxDays: number
    deadlineIntervalMs: number
    exportMaxRows: number
  }
  /** uploaded sound files (prompts): AUDIO_CONVERSIONS at once, each decoded within AUDIO_DECODE_TIMEOUT */
  audio: { conversions: number, decodeTimeoutMs: number }
  recordings: {
    /** where MixMonitor leaves raw recordings and the service keeps them (`kept/<day>/`) */
    dir: string
    /** days an operator may hear the calls it took */
    operatorDays: number
    sweepIntervalMs: number
    /** RECORDING_RETENTION_DAYS, purged every CALL_PURGE_INTERVAL */
    retentionDays: number
    purgeIntervalMs: number
    /** RECORDINGS_MAX_BYTES: the disk they may take */
    maxBytes?: number
  }
  pbx: {
    /** where generate-configs writes pjsip/queues/extensions files */
    configDir: string
    /** Asterisk's sounds directory: the prompts go under <lang>/appeals/org<prefix>/ */
    soundsDir: string
    /** RECORDINGS_DIR as Asterisk sees it: the dialplan records into it */
    recordingsDir: string
    /** PBX_CONFIG_DIR as Asterisk sees it: the main files include the organizations' files by it */
    asteriskConfigDir: string
    /** whether changes apply themselves (with AMI) */
    apply: 'auto' | 'off'
    /** Asterisk's log of warnings and errors: what it refused is read from it after each reload */
    asteriskLog?: string
    /** how many backups of earlier configuration sets generate-configs keeps */
    backupRetention: number
    /** the realm of SIP digest credentials (Asterisk's default is `asterisk`) */
    sipRealm: string
    /** where the phones register (host[:port]); unset: the terminals' page says to ask for it */
    sipServer?: string
    /** where the browser phones reach Asterisk's WebSocket (ws:// or wss://); unset: none can register */
    websocketUrl?: string
    /** where the generated transports listen, and what a centre behind a router says outside it */
    network: PbxNetwork
    /** unset: no Asterisk Manager Interface; reload and status say so */
    ami?: { host: string, port: number, username: string, secret: string, timeoutMs: number, reloadTimeoutMs: number, keepAliveMs: number }
    /** how often the operators' states are checked against an Asterisk restart */
    agentRestoreIntervalMs: number
  }
  llm: LlmConfig
  notifications: {
    /** unset: SMS notifications wait in the outbox */
    smpp?: { url: string, source: string, timeoutMs: number }
    backoffMs: number
    maxAttempts: number
    intervalMs: number
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

/** where Asterisk reads the organizations' files: a path an `#include` can carry */
function pbxAsteriskConfigDir (e: EnvValues): string {
  if (e.PBX_ASTERISK_CONFIG_DIR !== undefined) return e.PBX_ASTERISK_CONFIG_DIR.replace(/\/+$/, '') || '/'
  const dir = resolve(e.PBX_CONFIG_DIR ?? `${e.DATA_DIR}/asterisk`)
  if (!/^\/[A-Za-z0-9._/-]*$/.test(dir)) throw new ConfigError('PBX_CONFIG_DIR', 'made absolute, must be a path of letters, digits and . _ - / (the main files include by it); else set PBX_ASTERISK_CONFIG_DIR', dir)
  return dir
}

/** where the dialplan has MixMonitor write: a path the dialplan can carry (no comma, space or `$`) */
function pbxRecordingsDir (e: EnvValues): string {
  if (e.PBX_RECORDINGS_DIR !== undefined) return e.PBX_RECORDINGS_DIR.replace(/\/+$/, '') || '/'
  const dir = resolve(e.RECORDINGS_DIR ?? `${e.DATA_DIR}/recordings`)
  if (!/^\/[A-Za-z0-9._/-]*$/.test(dir)) throw new ConfigError('RECORDINGS_DIR', 'made absolute, must be a path of letters, digits and . _ - / (the dialplan writes it); else set PBX_RECORDINGS_DIR', dir)
  return dir
}

export class ConfigError extends Error {
  constructor (variable: string, problem: string, value: string) {
    super(`Invalid configuration: ${variable} ${problem} (got ${JSON.stringify(value)})`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>
type SchemaWithMeta = TSchema & { 'x-problem': string, 'x-secret'?: boolean }

// integers arrive as text: coerced; defaults of the schema filled in; the first problem stops the start
const ajv = makeAjv({ coerceTypes: true, allErrors: false })
ajv.addKeyword({ keyword: 'x-max-seconds', type: 'string', validate: (max: number, raw: string) => (parseDuration(raw) ?? 0) <= max })

/** A validator of one schema whose errors name the variable as `nameOf(key)` says. */
function reader<T> (schema: TObject) {
  const validate = ajv.compile(schema) as ValidateFunction<T>
  const properties: Record<string, TSchema> = schema.properties
  return (input: Record<string, unknown>, nameOf: (key: string) => string): T => {
    // empty values are unset; only the schema's own keys are read
    const values: Record<string, unknown> = {}
    for (const key of Object.keys(properties)) {
      const v = input[key]
      if (v === undefined || v === null) continue
      const value = typeof v === 'string' ? v.trim() : v
      if (value !== '') values[key] = value
    }
    const raw = { ...values }
    if (validate(values)) return values
    const key = validate.errors![0]!.instancePath.split('/')[1]!
    const property = properties[key] as SchemaWithMeta
    throw new ConfigError(nameOf(key), property['x-problem'], property['x-secret'] ? '<redacted>' : String(raw[key]))
  }
}

const readEnv = reader<EnvValues>(EnvSchema)
const readProvider = reader<LlmProviderValues>(LlmProviderSchema)

const seconds = (raw: string) => parseDuration(raw)!
const list = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)
const isTrue = (raw: string | undefined) => raw === undefined ? undefined : raw === 'true' || raw === '1'

function trustProxy (raw: string): Config['trustProxy'] {
  if (raw === 'false') return false
  if (raw === 'true') return true
  if (/^\d+$/.test(raw)) return Number(raw)
  return list(raw)
}

function appealsConfig (e: EnvValues): Config['appeals'] {
  try {
    new Intl.DateTimeFormat('en', { timeZone: e.TIME_ZONE }).format(0)
  } catch {
    throw new ConfigError('TIME_ZONE', 'must be an IANA time zone such as Asia/Almaty', e.TIME_ZONE)
  }
  const [start, end] = e.WORK_HOURS.split('-').map((hm) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3)))
  if (end! <= start!) throw new ConfigError('WORK_HOURS', 'must end after it starts', e.WORK_HOURS)
  if (e.APPEAL_MAX_DAYS < e.APPEAL_CLOSE_DAYS) throw new ConfigError('APPEAL_MAX_DAYS', 'must be at least APPEAL_CLOSE_DAYS', String(e.APPEAL_MAX_DAYS))
  return {
    timeZone: e.TIME_ZONE,
    workStartMinute: start!,
    workEndMinute: end!,
    closeDays: e.APPEAL_CLOSE_DAYS,
    maxDays: e.APPEAL_MAX_DAYS,
    deadlineIntervalMs: seconds(e.APPEAL_DEADLINE_INTERVAL) * 1000,
    exportMaxRows: e.APPEAL_EXPORT_MAX_ROWS,
  }
}

/** the transports' settings, each checked with the others it needs */
function pbxNetwork (e: EnvValues): PbxNetwork {
  const tlsSet = [e.PBX_SIP_TLS_BIND, e.PBX_SIP_TLS_CERT, e.PBX_SIP_TLS_KEY].filter((v) => v !== undefined).length
  if (tlsSet > 0 && tlsSet < 3) {
    const missing = (['PBX_SIP_TLS_BIND', 'PBX_SIP_TLS_CERT', 'PBX_SIP_TLS_KEY'] as const).find((k) => e[k] === undefined)!
    throw new ConfigError(missing, 'must be set with the other two of PBX_SIP_TLS_BIND, PBX_SIP_TLS_CERT and PBX_SIP_TLS_KEY', '')
  }
  if (e.PBX_EXTERNAL_ADDRESS !== undefined && e.PBX_LOCAL_NETS === undefined) {
    throw new ConfigError('PBX_LOCAL_NETS', 'must be set when PBX_EXTERNAL_ADDRESS is: without it every phone, the office\'s too, is given the router\'s address', '')
  }
  const badNet = e.PBX_LOCAL_NETS?.split(',').find((net) => { const [address, bits] = net.split('/'); return Number(bits) > 32 || address!.split('.').some((o) => Number(o) > 255) })
  if (badNet) throw new ConfigError('PBX_LOCAL_NETS', 'must be networks of IPv4 addresses (octets to 255) and prefix lengths to 32', badNet)
  return {
    sipBind: e.PBX_SIP_BIND,
    tls: e.PBX_SIP_TLS_BIND === undefined ? undefined : { bind: e.PBX_SIP_TLS_BIND, cert: e.PBX_SIP_TLS_CERT!, key: e.PBX_SIP_TLS_KEY! },
    websocket: e.PBX_WEBSOCKET_URL?.startsWith('wss:') ? 'wss' : 'ws',
    external: e.PBX_EXTERNAL_ADDRESS === undefined ? undefined : { address: e.PBX_EXTERNAL_ADDRESS, localNets: e.PBX_LOCAL_NETS!.split(',') },
  }
}

function amiConfig (e: EnvValues): Config['pbx']['ami'] {
  if (e.AMI_HOST === undefined) return undefined
  if (!e.AMI_USERNAME) throw new ConfigError('AMI_USERNAME', 'must be set when AMI_HOST is', '')
  if (!e.AMI_SECRET) throw new ConfigError('AMI_SECRET', 'must be set when AMI_HOST is', '')
  return { host: e.AMI_HOST, port: e.AMI_PORT, username: e.AMI_USERNAME, secret: e.AMI_SECRET, timeoutMs: seconds(e.AMI_TIMEOUT) * 1000, reloadTimeoutMs: seconds(e.AMI_RELOAD_TIMEOUT) * 1000, keepAliveMs: seconds(e.AMI_KEEPALIVE) * 1000 }
}

/** one provider from LLM_PROVIDERS (JSON) or from LLM_<NAME>_* variables; `where` names the source in errors */
function llmProvider (input: Record<string, unknown>, where: (field: string) => string): LlmProviderConfig {
  // LLM_PROVIDERS entries may write booleans and a list of models as JSON
  const fields = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : typeof v === 'boolean' || typeof v === 'number' ? String(v) : v]))
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined && v !== null && typeof v !== 'string') throw new ConfigError(where(k), 'must be a string', JSON.stringify(v))
  }
  const p = readProvider(fields, where)
  if (!p.name) throw new ConfigError(where('name'), 'must match [a-z0-9][a-z0-9_-]{0,31}', '')
  if (!p.base_url) throw new ConfigError(where('base_url'), 'must be set', '')
  if (!p.model) throw new ConfigError(where('model'), 'must be set', '')
  if (p.kind === 'anthropic' && !p.api_key) throw new ConfigError(where('api_key'), 'must be set for an anthropic provider', '')
  return {
    name: p.name,
    kind: p.kind,
    baseUrl: p.base_url.replace(/\/+$/, ''),
    apiKey: p.api_key,
    model: p.model,
    models: [...new Set([p.model, ...list(p.models)])],
    timeoutMs: seconds(p.timeout) * 1000,
    streamOptions: isTrue(p.stream_options) ?? p.kind === 'openai-compatible',
    external: isTrue(p.external) ?? true,
  }
}

function llmProviders (env: Env, json: string | undefined): LlmProviderConfig[] {
  const providers: LlmProviderConfig[] = []
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
    const fields = Object.fromEntries(Object.keys(LlmProviderSchema.properties).filter((f) => f !== 'name').map((f) => [f, env[prefix + f.toUpperCase()]]))
    providers.push(llmProvider({ name: m[1]!.toLowerCase(), ...fields }, (f) => prefix + f.toUpperCase()))
  }
  return providers
}

function llmConfig (env: Env, e: EnvValues): LlmConfig {
  const providers = llmProviders(env, e.LLM_PROVIDERS)
  const names = providers.map((p) => p.name)
  const duplicate = names.find((n, i) => names.indexOf(n) !== i)
  if (duplicate) throw new ConfigError('LLM_PROVIDERS', 'names a provider twice', duplicate)
  const known = (variable: string, name: string) => {
    if (!names.includes(name)) throw new ConfigError(variable, `must name a configured provider (${names.join(', ') || 'none configured'})`, name)
    return name
  }
  return {
    providers,
    defaultProvider: e.LLM_DEFAULT_PROVIDER !== undefined ? known('LLM_DEFAULT_PROVIDER', e.LLM_DEFAULT_PROVIDER) : names[0],
    fallback: list(e.LLM_FALLBACK).map((n) => known('LLM_FALLBACK', n)),
    redactPii: isTrue(e.LLM_REDACT_PII),
    logPrompts: isTrue(e.LLM_LOG_PROMPTS) ?? false,
    maxRetries: e.LLM_MAX_RETRIES,
    backoffMs: seconds(e.LLM_BACKOFF) * 1000,
    retryAfterCapMs: seconds(e.LLM_RETRY_AFTER_CAP) * 1000,
  }
}

export function loadConfig (env: Env = process.env): Config {
  const e = readEnv(env, (key) => key)
  return {
    port: e.PORT,
    host: e.HOST,
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? undefined : { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
    metrics: e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    seedOnFirstStart: isTrue(e.SEED_ON_FIRST_START) ?? true,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    jwtSecret: e.JWT_SECRET,
    accessTokenTtlSeconds: seconds(e.ACCESS_TOKEN_TTL),
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    corsOrigins: list(e.CORS_ORIGINS),
    trustProxy: trustProxy(e.TRUST_PROXY),
    serviceToken: e.SERVICE_TOKEN,
    authMode: e.AUTH_MODE,
    cellId: e.CELL_ID,
    referenceCacheVariants: e.REFERENCE_CACHE_VARIANTS,
    audit: { enabled: isTrue(e.PERSONAL_DATA_AUDIT) ?? true, key: e.AUDIT_KEY, retentionDays: e.AUDIT_RETENTION_DAYS },
    calls: {
      retentionDays: e.CALL_RETENTION_DAYS,
      purgeIntervalMs: seconds(e.CALL_PURGE_INTERVAL) * 1000,
    },
    appeals: appealsConfig(e),
    audio: { conversions: e.AUDIO_CONVERSIONS, decodeTimeoutMs: seconds(e.AUDIO_DECODE_TIMEOUT) * 1000 },
    recordings: {
      dir: e.RECORDINGS_DIR ?? `${e.DATA_DIR}/recordings`,
      operatorDays: e.RECORDING_OPERATOR_DAYS,
      sweepIntervalMs: seconds(e.RECORDING_SWEEP_INTERVAL) * 1000,
      retentionDays: e.RECORDING_RETENTION_DAYS,
      purgeIntervalMs: seconds(e.CALL_PURGE_INTERVAL) * 1000,
      maxBytes: e.RECORDINGS_MAX_BYTES,
    },
    pbx: {
      configDir: e.PBX_CONFIG_DIR ?? `${e.DATA_DIR}/asterisk`,
      asteriskConfigDir: pbxAsteriskConfigDir(e),
      apply: e.PBX_APPLY,
      asteriskLog: e.PBX_ASTERISK_LOG,
      soundsDir: e.PBX_SOUNDS_DIR ?? `${e.PBX_CONFIG_DIR ?? `${e.DATA_DIR}/asterisk`}/sounds`,
      recordingsDir: pbxRecordingsDir(e),
      backupRetention: e.PBX_BACKUP_RETENTION,
      sipRealm: e.PBX_SIP_REALM,
      sipServer: e.PBX_SIP_SERVER,
      websocketUrl: e.PBX_WEBSOCKET_URL,
      network: pbxNetwork(e),
      ami: amiConfig(e),
      agentRestoreIntervalMs: seconds(e.AGENT_RESTORE_INTERVAL) * 1000,
    },
    llm: llmConfig(env, e),
    notifications: {
      smpp: e.SMPP_URL === undefined ? undefined : { url: e.SMPP_URL, source: e.SMPP_SOURCE, timeoutMs: seconds(e.SMPP_TIMEOUT) * 1000 },
      backoffMs: seconds(e.NOTIFY_BACKOFF) * 1000,
      maxAttempts: e.NOTIFY_MAX_ATTEMPTS,
      intervalMs: seconds(e.NOTIFY_INTERVAL) * 1000,
    },
    extSync: {
      url: e.EXT_SYNC_URL,
      token: e.EXT_SYNC_TOKEN,
      timeoutMs: seconds(e.EXT_SYNC_TIMEOUT) * 1000,
      maxAttempts: e.EXT_SYNC_MAX_ATTEMPTS,
      backoffMs: seconds(e.EXT_SYNC_BACKOFF) * 1000,
      intervalMs: seconds(e.EXT_SYNC_INTERVAL) * 1000,
    },
  }
}
