// The service's environment variables as one TypeBox schema: what each accepts, its default and what
// it means. loadConfig validates process.env against it, and the configuration table (docs/configuration.md) is
// written from it (`npm run docs:config`), so the two cannot drift apart.
import { Type, type Static, type TSchema } from 'typebox'

/** how long the service waits for requests in flight at a stop (close-with-grace) */
export const STOP_GRACE_MS = 10_000

const DURATION = '^(\\d+)\\s*(ms|[smhd]?)$'
const durationUnits: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }

/** `90`, `500ms`, `90s`, `15m`, `12h`, `7d` to seconds */
export function parseDuration (raw: string): number | undefined {
  const m = new RegExp(DURATION).exec(raw.trim())
  if (!m) return undefined
  const seconds = Number(m[1]) * durationUnits[m[2] || 's']!
  return seconds > 0 ? seconds : undefined
}

interface Doc {
  /** what the configuration table says the variable is for */
  description: string
  /** the default as the configuration table states it, when it is not a literal value (computed, generated) */
  defaultDoc?: string
}

// Each kind is a string schema (the environment holds strings) with the sentence an error says
// (`x-problem`); secrets carry `x-secret` so that a bad value is never echoed.
const meta = (doc: Doc, problem: string, extra: Record<string, unknown> = {}) =>
  ({ description: doc.description, 'x-default-doc': doc.defaultDoc, 'x-problem': problem, ...extra })

const text = (doc: Doc & { default?: string, pattern?: string, problem?: string }) =>
  Type.String({ minLength: 1, maxLength: 4096, pattern: doc.pattern, default: doc.default, ...meta(doc, doc.problem ?? 'must be text') })
const integer = (doc: Doc & { default?: number, min: number, max: number }) =>
  Type.Integer({ minimum: doc.min, maximum: doc.max, default: doc.default, ...meta(doc, `must be an integer from ${doc.min} to ${doc.max}`) })
const oneOf = <T extends string>(values: readonly T[], doc: Doc & { default?: T, problem?: string }) =>
  Type.Unsafe<T>({ type: 'string', enum: values, default: doc.default, ...meta(doc, doc.problem ?? `must be one of ${values.join(', ')}`) })
const flag = (doc: Doc & { default?: 'true' | 'false' }) => oneOf(['true', 'false', '1', '0'] as const, { ...doc, problem: 'must be true or false' })
const url = (protocols: string[], doc: Doc & { secret?: boolean }) => Type.String({
  format: 'uri', maxLength: 4096, pattern: `^(${protocols.join('|')})://`,
  ...meta(doc, `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`, doc.secret ? { 'x-secret': true } : {}),
})
const secret = (minLength: number, doc: Doc) =>
  Type.String({ minLength, maxLength: 4096, ...meta(doc, `must be at least ${minLength} characters long`, { 'x-secret': true }) })
const duration = (doc: Doc & { default: string, maxSeconds?: number }) => Type.String({
  pattern: DURATION, default: doc.default, 'x-max-seconds': doc.maxSeconds,
  ...meta(doc, `must be a duration such as 500ms, 900s, 30m, 12h or 7d${doc.maxSeconds ? ` of at most ${doc.maxSeconds}s` : ''}`),
})

export const EnvSchema = Type.Object({
  PORT: integer({ default: 8000, min: 0, max: 65535, description: 'HTTP port' }),
  HOST: text({ default: '0.0.0.0', description: 'listen address' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(url(['http', 'https'], { description: 'OTLP/HTTP collector (`http://collector:4318`): traces of requests, their statements and calls out are sent to `/v1/traces`; unset = no tracing' })),
  OTEL_SERVICE_NAME: text({ default: 'appeals', description: 'the service\'s name in its traces' }),
  METRICS_PORT: Type.Optional(integer({ min: 0, max: 65535, description: 'port of the Prometheus metrics listener (`GET /metrics`), apart from the public one; unset = no metrics' })),
  METRICS_HOST: text({ default: '127.0.0.1', description: 'address of the metrics listener (the loopback: only this machine scrapes it unless set wider)' }),
  DATABASE_URL: Type.Optional(url(['postgres', 'postgresql'], { secret: true, description: '`postgresql://...` of a PostgreSQL server; unset = embedded PGlite in `DATA_DIR`' })),
  DATA_DIR: text({ default: './data', description: 'embedded database (`pgdata/`), PBX config output' }),
  SEED_ON_FIRST_START: flag({ default: 'true', description: 'load the reference data (sources, response methods, regions, the default classifier) at the first start on a database that has none, embedded or PostgreSQL' }),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, { default: 'info', description: 'log level of the JSON log on stdout' }),
  LOG_FORMAT: oneOf(['auto', 'json', 'readable'] as const, { default: 'auto', description: 'the log on stdout: JSON lines (`json`), a line a person reads at a terminal (`readable`: time, level, message, fields), or `auto`: readable when stdout is a terminal, JSON otherwise (a journal, a pipe, a container)' }),
  JWT_SECRET: Type.Optional(secret(32, { defaultDoc: 'generated once, kept in the database', description: 'HS256 signing key of access tokens' })),
  ACCESS_TOKEN_TTL: duration({ default: '12h', description: 'access token lifetime' }),
  ADMIN_EMAIL: Type.Optional(text({ pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', problem: 'must be an e-mail address', description: 'first administrator, created at start when no user exists' })),
  ADMIN_PASSWORD: Type.Optional(secret(10, { description: 'the first administrator\'s password' })),
  SMTP_URL: Type.Optional(url(['smtp', 'smtps'], { secret: true, description: '`smtp://user:pass@host:587` or `smtps://...`; unset = mails go to the outbox table and the log' })),
  MAIL_FROM: text({ default: 'appeals@localhost', description: 'sender of invitation and reset mails' }),
  PUBLIC_URL: Type.Optional(url(['http', 'https'], { defaultDoc: '`http://localhost:PORT`', description: 'base of links in mails' })),
  CORS_ORIGINS: Type.Optional(text({ description: 'comma-separated origins allowed by CORS' })),
  TRUST_PROXY: text({
    default: 'false',
    pattern: '^(true|false|\\d+|[0-9a-fA-F:.]+(/\\d{1,3})?(\\s*,\\s*[0-9a-fA-F:.]+(/\\d{1,3})?)*)$',
    problem: 'must be true, false, a hop count or a comma-separated list of addresses/CIDRs',
    description: 'proxies whose `X-Forwarded-For` is believed: `true`, a hop count, or addresses/CIDRs (login throttling counts per client address)',
  }),
  SERVICE_TOKEN: Type.Optional(secret(16, { description: 'bearer token of machine callers (call events, platform control)' })),
  AUTH_MODE: oneOf(['interface', 'strict'] as const, { default: 'strict', description: '`strict`: every unmarked write at its least role (the structure\'s an administrator\'s, the rest a user token) and a token on the reads that show secrets, citizens or the PBX (administrators alone for the PBX-wide routes); `interface`: unmarked routes open as in the interface, for clients of the old service' }),
  REFERENCE_CACHE_VARIANTS: integer({ default: 256, min: 0, max: 100_000, description: 'answers of reference reads (regions, classifiers, lists, groups, organizations) each instance keeps per topic; 0 turns the cache off' }),
  CELL_ID: Type.Optional(text({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', problem: 'must match [a-z0-9][a-z0-9_-]{0,62}', description: 'identifier of this deployment cell (platform control)' })),
  PBX_CONFIG_DIR: Type.Optional(text({ defaultDoc: '`DATA_DIR/asterisk`', description: 'where generate-configs writes pjsip.conf, queues.conf, extensions.conf' })),
  PBX_SOUNDS_DIR: Type.Optional(text({ defaultDoc: '`PBX_CONFIG_DIR/sounds`', description: 'Asterisk\'s sounds directory (astsoundsdir): recorded prompts are written under `<lang>/appeals/`' })),
  PBX_ASTERISK_CONFIG_DIR: Type.Optional(text({ defaultDoc: 'PBX_CONFIG_DIR, made absolute', pattern: '^/[A-Za-z0-9._/-]*$', problem: 'must be an absolute path of letters, digits and . _ - /', description: 'PBX_CONFIG_DIR as Asterisk sees it (another mount point of the same volume): pjsip.conf, queues.conf and extensions.conf include each organization\'s own files by this path' })),
  PBX_ASTERISK_LOG: Type.Optional(text({ defaultDoc: 'unset: Asterisk\'s refusals are not read', pattern: '^/.*', problem: 'must be an absolute path', description: 'Asterisk\'s log of warnings and errors (a `logger.conf` file channel with `warning,error`, such as /var/log/asterisk/messages), readable by the service: after each reload its new lines about an organization\'s files are shown as what Asterisk refused, in its own words' })),
  PBX_APPLY: oneOf(['auto', 'off'] as const, { default: 'auto', description: '`auto`: with AMI, every change of what Asterisk runs is written and reloaded by itself within a second; `off`: only by generate-configs' }),
  PBX_BACKUP_RETENTION: integer({ default: 20, min: 1, max: 10_000, description: 'how many backups of earlier configuration sets are kept (older ones are removed)' }),
  RECORDINGS_DIR: Type.Optional(text({ defaultDoc: '`DATA_DIR/recordings`', description: 'where Asterisk\'s MixMonitor leaves the calls\' raw recordings and the service keeps them compressed (`kept/<day>/`): one directory both read and write' })),
  PBX_RECORDINGS_DIR: Type.Optional(text({ defaultDoc: 'RECORDINGS_DIR, made absolute', pattern: '^/[A-Za-z0-9._/-]*$', problem: 'must be an absolute path of letters, digits and . _ - /', description: 'RECORDINGS_DIR as Asterisk sees it (another mount point of the same volume); the generated dialplan records into it' })),
  RECORDING_OPERATOR_DAYS: integer({ default: 7, min: 0, max: 3650, description: 'days an operator may hear the calls it took' }),
  RECORDING_SWEEP_INTERVAL: duration({ default: '10s', description: 'how often finished recordings are taken over from RECORDINGS_DIR' }),
  RECORDING_RETENTION_DAYS: integer({ default: 365, min: 1, max: 36500, description: 'recordings older than this are deleted (with CALL_PURGE_INTERVAL), each purge audited; a recording of an appeal not yet closed is kept, and counted from the appeal\'s closing' }),
  RECORDINGS_MAX_BYTES: Type.Optional(integer({ min: 1, max: Number.MAX_SAFE_INTEGER, description: 'the disk the recordings may take: the board and /metrics then say how many days are left at the last week\'s pace' })),
  AUDIO_CONVERSIONS: integer({ default: 2, min: 1, max: 64, description: 'prompts converted at once by this instance (an upload\'s decoding takes a core and a few MB): an upload that finds them all busy is answered 503 with Retry-After, a recording by phone waits its turn' }),
  AUDIO_DECODE_TIMEOUT: duration({ default: '15s', description: 'how long FFmpeg may take to decode one uploaded file before it is killed and the file refused (422 audio_unreadable)' }),
  PBX_SIP_REALM: text({ default: 'asterisk', pattern: '^[A-Za-z0-9._-]{1,40}$', problem: 'must be 1 to 40 letters, digits, dots, dashes or underscores', description: 'realm of the SIP digest credentials (the realm Asterisk challenges with)' }),
  PBX_SIP_SERVER: Type.Optional(text({ pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$', problem: 'must be a host name or an IPv4 address, with :port if not 5060', description: 'where the phones register, as they reach Asterisk (`pbx.centre.kz`, `10.0.0.5:5060`): the terminals\' page shows it for setting a phone up' })),
  PBX_SIP_BIND: text({ default: '0.0.0.0:5060', pattern: '^([0-9]{1,3}(\\.[0-9]{1,3}){3}|\\[[0-9A-Fa-f:]+\\]):[0-9]{1,5}$', problem: 'must be an IP address and a port (`10.0.0.5:5060`, `[::]:5060`)', description: 'where Asterisk\'s SIP over UDP and TCP listens (the generated transport-udp and transport-tcp): every address of the machine unless an address is given' }),
  PBX_SIP_TLS_BIND: Type.Optional(text({ pattern: '^([0-9]{1,3}(\\.[0-9]{1,3}){3}|\\[[0-9A-Fa-f:]+\\]):[0-9]{1,5}$', problem: 'must be an IP address and a port (`0.0.0.0:5061`)', description: 'where SIP over TLS listens (transport-tls, for phones and trunks that encrypt their signalling); needs PBX_SIP_TLS_CERT and PBX_SIP_TLS_KEY; unset: no TLS transport' })),
  PBX_SIP_TLS_CERT: Type.Optional(text({ pattern: '^/[A-Za-z0-9._/-]*$', problem: 'must be an absolute path of letters, digits and . _ - /', description: 'the TLS certificate (PEM, with its chain) as Asterisk reads it: set with PBX_SIP_TLS_BIND' })),
  PBX_SIP_TLS_KEY: Type.Optional(text({ pattern: '^/[A-Za-z0-9._/-]*$', problem: 'must be an absolute path of letters, digits and . _ - /', description: 'the TLS certificate\'s private key (PEM) as Asterisk reads it: set with PBX_SIP_TLS_BIND' })),
  PBX_EXTERNAL_ADDRESS: Type.Optional(text({ pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$', problem: 'must be a host name or an IPv4 address', description: 'a centre behind a router: the public address Asterisk gives in SIP and SDP to everything outside PBX_LOCAL_NETS (external_signaling_address and external_media_address); needs PBX_LOCAL_NETS' })),
  PBX_LOCAL_NETS: Type.Optional(text({ pattern: '^[0-9]{1,3}(\\.[0-9]{1,3}){3}/[0-9]{1,2}(,[0-9]{1,3}(\\.[0-9]{1,3}){3}/[0-9]{1,2})*$', problem: 'must be networks separated by commas (`10.0.0.0/8,192.168.0.0/16`)', description: 'the networks Asterisk reaches without the router (local_net): their phones get its own address, the rest PBX_EXTERNAL_ADDRESS' })),
  PBX_WEBSOCKET_URL: Type.Optional(text({ pattern: '^wss?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?/[A-Za-z0-9._/-]*$', problem: 'must be a ws:// or wss:// address with a path (`wss://pbx.centre.kz:8089/ws`)', description: 'where the consoles\' browser phones reach Asterisk\'s WebSocket (its HTTP server, http.conf, path /ws): `wss://` wherever the console is not on the operator\'s own machine (browsers allow the microphone and WebSocket only so); unset: terminals with a browser phone cannot register' })),
  AMI_HOST: Type.Optional(text({ description: 'host of the Asterisk Manager Interface; unset = no AMI (reload and status say so)' })),
  AMI_PORT: integer({ default: 5038, min: 1, max: 65535, description: 'AMI port' }),
  AMI_USERNAME: Type.Optional(text({ description: 'AMI user (required with `AMI_HOST`)' })),
  AMI_SECRET: Type.Optional(secret(1, { description: 'AMI secret (required with `AMI_HOST`)' })),
  AMI_TIMEOUT: duration({ default: '5s', description: 'AMI connection and action timeout' }),
  AMI_RELOAD_TIMEOUT: duration({ default: '120s', description: 'how long a reload may take (`module reload res_pjsip.so` on a large PBX takes long): reloads run on an AMI connection of their own, so a long one holds up no desk action' }),
  AMI_KEEPALIVE: duration({ default: '20s', description: 'how often the events connection pings Asterisk when it has heard nothing: a connection that does not answer within AMI_TIMEOUT is reopened (a half-open one would freeze the line silently)' }),
  AGENT_RESTORE_INTERVAL: duration({ default: '30s', description: 'how often Asterisk\'s startup time is checked: after a restart the operators\' pauses are put back' }),
  CALL_RETENTION_DAYS: integer({ default: 365, min: 1, max: 36_500, description: 'calls and transcripts, the line\'s calls and the agents\' state periods older than this are deleted (the queue figures\' sums stay)' }),
  CALL_PURGE_INTERVAL: duration({ default: '1h', description: 'how often the purge of old calls runs' }),
  PERSONAL_DATA_AUDIT: flag({ default: 'true', description: 'record who was shown which citizen\'s data (appeals, transcripts, persons, calls) and who exported what' }),
  AUDIT_KEY: Type.Optional(secret(32, { defaultDoc: 'derived from the token signing key', description: 'key of the audit records\' chain of hashes; kept outside the database, a record changed by someone who can write to the database is found by the check' })),
  AUDIT_RETENTION_DAYS: integer({ default: 1095, min: 1, max: 36_500, description: 'records of personal data access older than this are deleted (the same purge interval as calls)' }),
  TIME_ZONE: text({ default: 'Asia/Almaty', pattern: '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$', problem: 'must be an IANA time zone such as Asia/Almaty', description: 'the centre\'s time zone: working hours and calendar days are counted in it' }),
  WORK_HOURS: text({ default: '09:00-18:00', pattern: '^([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-4]):[0-5]\\d$', problem: 'must be HH:MM-HH:MM, such as 09:00-18:00', description: 'the working day of the centre, for deadlines in working hours' }),
  APPEAL_CLOSE_DAYS: integer({ default: 15, min: 1, max: 365, description: 'working days to answer an appeal whose subcategory has no `time_to_close`' }),
  APPEAL_MAX_DAYS: integer({ default: 30, min: 1, max: 365, description: 'working days an extension may bring the answer deadline to, at most' }),
  APPEAL_EXPORT_MAX_ROWS: integer({ default: 100_000, min: 1, max: 1_000_000, description: 'rows an export of the register holds at most (a larger match is cut and says so)' }),
  APPEAL_DEADLINE_INTERVAL: duration({ default: '1m', description: 'how often the deadline job looks for appeals that passed a deadline' }),
  SMPP_URL: Type.Optional(url(['smpp'], { secret: true, description: '`smpp://system_id:password@host:2775`: the SMS centre citizens\' SMS notifications go through (SMPP 3.4); unset = SMS notifications wait in the outbox' })),
  SMPP_SOURCE: text({ default: '109', description: 'the sender of SMS notifications (a short number or an alphanumeric name)' }),
  SMPP_TIMEOUT: duration({ default: '5s', maxSeconds: STOP_GRACE_MS / 1000 - 2, description: 'SMPP connect, bind and submit timeout' }),
  NOTIFY_BACKOFF: duration({ default: '30s', description: 'first retry delay of a notification (doubling, at most an hour)' }),
  NOTIFY_MAX_ATTEMPTS: integer({ default: 8, min: 1, max: 100, description: 'attempts before a notification is `failed`' }),
  NOTIFY_INTERVAL: duration({ default: '5s', description: 'how often the notification worker looks for due rows (it is also woken by new ones)' }),
  EXT_SYNC_URL: Type.Optional(url(['http', 'https'], { description: 'where organization changes are posted; unset = synchronisation `disabled`' })),
  EXT_SYNC_TOKEN: Type.Optional(secret(1, { description: 'bearer token sent with them' })),
  EXT_SYNC_TIMEOUT: duration({ default: '5s', maxSeconds: STOP_GRACE_MS / 1000 - 2, description: 'per-request timeout (within the stop\'s grace period, so a stop never cuts a delivery short)' }),
  EXT_SYNC_BACKOFF: duration({ default: '5s', description: 'first retry delay (doubling)' }),
  EXT_SYNC_MAX_ATTEMPTS: integer({ default: 8, min: 1, max: 100, description: 'attempts before a change is `failed`' }),
  EXT_SYNC_INTERVAL: duration({ default: '2s', description: 'how often the worker looks for due work' }),
  LLM_PROVIDERS: Type.Optional(text({ description: 'JSON array of LLM providers, each with the fields of `LLM_<NAME>_*` in lower case (see docs/llm.md)' })),
  LLM_DEFAULT_PROVIDER: Type.Optional(text({ defaultDoc: 'the first provider', description: 'the provider used when a request names none' })),
  LLM_FALLBACK: Type.Optional(text({ description: 'comma-separated providers tried in this order after the chosen one fails' })),
  LLM_MAX_RETRIES: integer({ default: 2, min: 0, max: 10, description: 'retries per provider before the first byte' }),
  LLM_BACKOFF: duration({ default: '500ms', description: 'first retry backoff (doubling, jittered)' }),
  LLM_RETRY_AFTER_CAP: duration({ default: '20s', description: 'the longest `Retry-After` waited for' }),
  LLM_REDACT_PII: Type.Optional(flag({ defaultDoc: 'for external providers', description: '`true`/`false`: replace IINs, phone numbers and e-mails by placeholders before a request leaves' })),
  LLM_LOG_PROMPTS: flag({ default: 'false', description: 'keep the (redacted) messages and the answer with each accounted call' }),
}, { additionalProperties: true })

export type EnvValues = Static<typeof EnvSchema>

/**
 * One LLM provider: the fields of an `LLM_PROVIDERS` entry (lower case) and of the `LLM_<NAME>_*`
 * variables (upper case), checked by the same schema.
 */
export const LlmProviderSchema = Type.Object({
  name: Type.Optional(text({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$', problem: 'must match [a-z0-9][a-z0-9_-]{0,31}', defaultDoc: '`<name>` in lower case', description: 'the provider\'s name (in `LLM_PROVIDERS` entries)' })),
  kind: oneOf(['openai-compatible', 'anthropic'] as const, { default: 'openai-compatible', description: 'wire format of the provider' }),
  base_url: Type.Optional(url(['http', 'https'], { description: 'base URL (`.../v1`); announces the provider' })),
  api_key: Type.Optional(secret(1, { description: 'API key (required for anthropic)' })),
  model: Type.Optional(text({ description: 'model used when a request names none (required)' })),
  models: Type.Optional(text({ description: 'comma-separated further models a request may name' })),
  timeout: duration({ default: '60s', description: 'wait for the first byte, and between streamed parts' }),
  stream_options: Type.Optional(flag({ defaultDoc: '`true` for openai-compatible', description: 'send `stream_options.include_usage` (turn off for servers that refuse it)' })),
  external: flag({ default: 'true', description: 'runs outside the centre (personal data is redacted by default)' }),
}, { additionalProperties: true })

export type LlmProviderValues = Static<typeof LlmProviderSchema>

/** the configuration table (docs/configuration.md), row for row from the schemas */
export function configurationTable (): string {
  const row = (name: string, schema: TSchema) => {
    const s = schema as { default?: unknown, description: string, 'x-default-doc'?: string, 'x-problem': string }
    const fallback = s['x-default-doc'] ?? (s.default === undefined ? 'unset' : `\`${String(s.default)}\``)
    const accepts = s['x-problem'].replace(/^must (be|match) /, (_, verb: string) => (verb === 'match' ? 'matching ' : ''))
    return `| \`${name}\` | ${fallback} | ${accepts} | ${s.description} |`
  }
  return [
    '| variable | default | accepts | meaning |',
    '|---|---|---|---|',
    ...Object.entries(EnvSchema.properties).map(([name, schema]) => row(name, schema)),
    ...Object.entries(LlmProviderSchema.properties).filter(([field]) => field !== 'name')
      .map(([field, schema]) => row(`LLM_<NAME>_${field.toUpperCase()}`, schema)),
  ].join('\n')
}
