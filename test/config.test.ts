import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { readFileSync } from 'node:fs'
import { loadConfig, parseDuration } from '../src/config.js'
import { EnvSchema } from '../src/config/env-schema.js'
import { CONFIGURATION_PAGE, withTable } from '../scripts/write-config-table.js'

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({})
    assert.equal(c.port, 8000)
    assert.equal(c.host, '0.0.0.0')
    assert.equal(c.dataDir, './data')
    assert.equal(c.databaseUrl, undefined)
    assert.equal(c.logLevel, 'info')
    assert.equal(c.authMode, 'strict', 'closed unless a client of the old service needs it open')
    assert.equal(c.accessTokenTtlSeconds, 12 * 3600)
  })

  it('names the variable of every bad value, and never echoes a secret', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ PORT: '70000' }, /Invalid configuration: PORT must be an integer/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a URL starting with postgres:/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
      [{ AUTH_MODE: 'open' }, /AUTH_MODE must be one of interface, strict/],
      [{ ACCESS_TOKEN_TTL: 'soon' }, /ACCESS_TOKEN_TTL must be a duration/],
      [{ SMTP_URL: 'http://mail' }, /SMTP_URL/],
      [{ CELL_ID: 'Bad Cell' }, /CELL_ID/],
      [{ TRUST_PROXY: 'the load balancer' }, /TRUST_PROXY/],
      [{ AMI_HOST: '127.0.0.1' }, /AMI_USERNAME must be set/],
      [{ PORT: '80.5' }, /PORT must be an integer from 0 to 65535/],
      [{ PBX_SIP_REALM: 'asterisk\nmd5_cred=x' }, /PBX_SIP_REALM must be 1 to 40 letters/],
      [{ EXT_SYNC_TIMEOUT: '30s' }, /EXT_SYNC_TIMEOUT must be a duration .* of at most 8s/],
      [{ LLM_LOG_PROMPTS: 'yes' }, /LLM_LOG_PROMPTS must be true or false/],
      [{ PBX_SIP_BIND: '0.0.0.0' }, /PBX_SIP_BIND must be an IP address and a port/],
      [{ PBX_SIP_BIND: 'pbx.centre.kz:5060' }, /PBX_SIP_BIND must be an IP address and a port/],
      [{ PBX_SIP_TLS_BIND: '0.0.0.0:5061' }, /PBX_SIP_TLS_CERT must be set with the other two/],
      [{ PBX_SIP_TLS_BIND: '0.0.0.0:5061', PBX_SIP_TLS_CERT: '/etc/asterisk/keys/pbx.crt' }, /PBX_SIP_TLS_KEY must be set with the other two/],
      [{ PBX_SIP_TLS_CERT: 'keys/pbx.crt' }, /PBX_SIP_TLS_CERT must be an absolute path/],
      [{ PBX_EXTERNAL_ADDRESS: '203.0.113.7' }, /PBX_LOCAL_NETS must be set when PBX_EXTERNAL_ADDRESS is/],
      [{ PBX_EXTERNAL_ADDRESS: '203.0.113.7', PBX_LOCAL_NETS: '10.0.0.0/8,300.1.0.0/16' }, /PBX_LOCAL_NETS must be networks of IPv4 addresses/],
      [{ PBX_EXTERNAL_ADDRESS: '203.0.113.7', PBX_LOCAL_NETS: '10.0.0.0' }, /PBX_LOCAL_NETS must be networks separated by commas/],
      [{ PBX_WEBSOCKET_URL: 'https://pbx.centre.kz/ws' }, /PBX_WEBSOCKET_URL must be a ws:\/\/ or wss:\/\/ address/],
    ]
    for (const [env, message] of bad) assert.throws(() => loadConfig(env), message)
    assert.throws(() => loadConfig({ JWT_SECRET: 'short-secret-value' }), (err: Error) =>
      /JWT_SECRET must be at least 32/.test(err.message) && !err.message.includes('short-secret-value'))
    assert.throws(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail' }), (err: Error) => /SMTP_URL/.test(err.message) && !err.message.includes('hunter2'))
  })

  it('the transports: every address at 5060 unless told; TLS, the WebSocket\'s kind and the router\'s address as given', () => {
    assert.deepEqual(loadConfig({}).pbx.network, { sipBind: '0.0.0.0:5060', tls: undefined, websocket: 'ws', external: undefined })
    assert.deepEqual(loadConfig({
      PBX_SIP_BIND: '10.0.0.5:5060', PBX_SIP_TLS_BIND: '10.0.0.5:5061', PBX_SIP_TLS_CERT: '/etc/asterisk/keys/pbx.crt', PBX_SIP_TLS_KEY: '/etc/asterisk/keys/pbx.key',
      PBX_WEBSOCKET_URL: 'wss://pbx.centre.kz:8089/ws', PBX_EXTERNAL_ADDRESS: '203.0.113.7', PBX_LOCAL_NETS: '10.0.0.0/8,192.168.0.0/16',
    }).pbx.network, {
      sipBind: '10.0.0.5:5060', tls: { bind: '10.0.0.5:5061', cert: '/etc/asterisk/keys/pbx.crt', key: '/etc/asterisk/keys/pbx.key' },
      websocket: 'wss', external: { address: '203.0.113.7', localNets: ['10.0.0.0/8', '192.168.0.0/16'] },
    })
  })

  it('reads values through the schema: integers, lists, flags, durations; empty means unset', () => {
    const c = loadConfig({ PORT: ' 9000 ', CORS_ORIGINS: 'https://a.kz, https://b.kz', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1', DATABASE_URL: '', EXT_SYNC_TIMEOUT: '8s', LLM_REDACT_PII: '0' })
    assert.equal(c.port, 9000)
    assert.equal(c.publicUrl, 'http://localhost:9000')
    assert.deepEqual(c.corsOrigins, ['https://a.kz', 'https://b.kz'])
    assert.deepEqual(c.trustProxy, ['10.0.0.0/8', '127.0.0.1'])
    assert.equal(c.databaseUrl, undefined)
    assert.equal(c.extSync.timeoutMs, 8000)
    assert.equal(c.llm.redactPii, false)
  })

  it('the configuration page\'s table is the one the schema writes, and names every variable', () => {
    const page = readFileSync(CONFIGURATION_PAGE, 'utf8')
    assert.equal(page, withTable(page), `${CONFIGURATION_PAGE} is out of date: npm run docs:config`)
    for (const name of Object.keys(EnvSchema.properties)) assert.ok(page.includes(`| \`${name}\` |`), name)
    // every variable the code reads is in the schema
    const source = readFileSync('src/config.ts', 'utf8')
    assert.ok(!/process\.env\.[A-Z]/.test(source) && !/env\['[A-Z_]+'\]/.test(source))
  })

  it('parses durations', () => {
    assert.equal(parseDuration('90'), 90)
    assert.equal(parseDuration('15m'), 900)
    assert.equal(parseDuration('12h'), 43200)
    assert.equal(parseDuration('7d'), 604800)
    assert.equal(parseDuration('0s'), undefined)
    assert.equal(parseDuration('1w'), undefined)
  })
})
