import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig, parseDuration } from '../src/config.js'

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({})
    assert.equal(c.port, 8000)
    assert.equal(c.host, '0.0.0.0')
    assert.equal(c.dataDir, './data')
    assert.equal(c.databaseUrl, undefined)
    assert.equal(c.logLevel, 'info')
    assert.equal(c.authMode, 'interface')
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
    ]
    for (const [env, message] of bad) assert.throws(() => loadConfig(env), message)
    assert.throws(() => loadConfig({ JWT_SECRET: 'short-secret-value' }), (err: Error) =>
      /JWT_SECRET must be at least 32/.test(err.message) && !err.message.includes('short-secret-value'))
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
