import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { defaultPbxOptions, generateExtensions, generateQueues, generateSip, validateModel, type PbxOrganization, type PbxTerminal } from '../../src/modules/pbx/generators.js'
import { asterisk22Options, digestAlgorithms, parseConf } from '../helpers/asterisk-config.js'
import type { PbxNetwork } from '../../src/integrations/asterisk/transports.js'

const terminal = (id: string, extension: string, extra: Partial<PbxTerminal> = {}): PbxTerminal => ({
  id, extension, name: `Оператор ${extension}`, transport: 'transport-udp', context: `org${id.slice(0, 3)}-internal`, disallow: 'all', allow: 'alaw,ulaw',
  direct_media: false, rtp_symmetric: true, force_rport: true, rewrite_contact: true, language: 'ru', mailboxes: null,
  passwordDigests: [`MD5:${'5'.repeat(29)}${id.slice(3)}`, `SHA-256:${'a'.repeat(61)}${id.slice(3)}`], realm: 'asterisk', outgoing_cli: null, allow_long_distance: false,
  cf_unconditional_enabled: false, cf_unconditional_dest: null, cf_unavailable_enabled: false, cf_unavailable_dest: null,
  cf_noanswer_enabled: false, cf_noanswer_dest: null, cf_noanswer_timeout: 20, cf_busy_enabled: false, cf_busy_dest: null, phone: 'desk', ...extra,
})

/** two organizations in different regions: Astana (7172, 6 local digits) and Almaty (727, 7) */
export const fixture: PbxOrganization[] = [
  { id: 2, name: 'Акимат Алматы', prefix: '202', areaCode: '727', localDigits: 7, terminals: [
    terminal('202001', '001', { allow_long_distance: true, outgoing_cli: '+77272505050', cf_noanswer_enabled: true, cf_noanswer_dest: '87011234567', cf_noanswer_timeout: 15 }),
  ] },
  { id: 1, name: 'Акимат Астаны; [evil]\nexten => 666', prefix: '101', areaCode: '7172', localDigits: 6, terminals: [
    // its password was last set before SHA-256 digests were kept
    terminal('101002', '002', { cf_busy_enabled: true, cf_busy_dest: '001', cf_unavailable_enabled: true, cf_unavailable_dest: '554433', passwordDigests: [`MD5:${'5'.repeat(29)}002`] }),
    terminal('101001', '001', { name: 'Старший\n[inject]', cf_unconditional_enabled: true, cf_unconditional_dest: '002', mailboxes: '101001@default' }),
    // a browser phone: WebRTC, its key's digest alone
    terminal('101003', '003', { phone: 'browser', passwordDigests: [`MD5:${'b'.repeat(29)}003`] }),
  ] },
]

const golden = (name: string, text: string) => {
  const file = `test/fixtures/pbx/${name}`
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text)
  assert.equal(text, readFileSync(file, 'utf8'), `${name} differs from the golden file (UPDATE_GOLDEN=1 npm test -- ${import.meta.filename} rewrites it)`)
}

describe('PBX generators', () => {
  it('match the golden files, byte for byte, whatever the input order', () => {
    golden('pjsip.conf', generateSip(fixture))
    golden('queues.conf', generateQueues(fixture))
    golden('extensions.conf', generateExtensions(fixture))
    const reversed = [...fixture].reverse().map((o) => ({ ...o, terminals: [...o.terminals].reverse() }))
    assert.equal(generateSip(reversed), generateSip(fixture))
    assert.equal(generateExtensions(reversed), generateExtensions(fixture))
  })

  it('pjsip.conf: well-formed sections; every endpoint has its auth and aor; no injected section', () => {
    const sections = parseConf(generateSip(fixture))
    const byType = (type: string) => sections.filter((s) => s.options.some(([k, v]) => k === 'type' && v === type)).map((s) => s.name)
    const endpoints = byType('endpoint')
    assert.deepEqual(endpoints, ['101001', '101002', '101003', '202001'])
    assert.deepEqual(byType('auth'), endpoints)
    assert.deepEqual(byType('aor'), endpoints)
    assert.ok(!sections.some((s) => /evil|inject/.test(s.name)))
    const transports = byType('transport')
    for (const s of sections.filter((x) => endpoints.includes(x.name))) {
      const transport = s.options.find(([k]) => k === 'transport')
      if (transport) assert.ok(transports.includes(transport[1]), `${s.name} uses an undefined transport`)
    }
  })

  it('every option written is one of Asterisk 22: auth_type=digest with password_digest per algorithm, nothing deprecated', () => {
    const typeOf = (s: ReturnType<typeof parseConf>[number]) => s.options.find(([k]) => k === 'type')![1]
    for (const s of parseConf(generateSip(fixture))) {
      const allowed = asterisk22Options[typeOf(s)]
      assert.ok(allowed, `${s.name}: unknown section type ${typeOf(s)}`)
      for (const [key] of s.options) assert.ok(allowed.includes(key), `${s.name} (${typeOf(s)}): ${key} is not an Asterisk 22 option`)
    }
    for (const s of parseConf(generateQueues(fixture))) {
      const allowed = asterisk22Options[s.name === 'general' ? 'queues.conf [general]' : 'queues.conf queue']!
      for (const [key] of s.options) assert.ok(allowed.includes(key), `queues.conf [${s.name}]: ${key} is not an Asterisk 22 option`)
    }
    const auths = parseConf(generateSip(fixture)).filter((s) => typeOf(s) === 'auth')
    for (const auth of auths) {
      const values = (key: string) => auth.options.filter(([k]) => k === key).map(([, v]) => v)
      assert.deepEqual(values('auth_type'), ['digest'], auth.name)
      const digests = values('password_digest').map((d) => /^([A-Z0-9-]+):([0-9a-f]+)$/.exec(d)!)
      for (const [, algorithm, hash] of digests) assert.equal(hash!.length, digestAlgorithms[algorithm!], `${auth.name}: ${algorithm} digest`)
      const algorithms = digests.map((d) => d[1]!)
      assert.equal(new Set(algorithms).size, algorithms.length, `${auth.name}: one password_digest per algorithm`)
      // Asterisk refuses to load an auth that offers an algorithm it has no digest for
      for (const offered of values('supported_algorithms_uas').flatMap((v) => v.split(','))) assert.ok(algorithms.includes(offered.trim()), `${auth.name} offers ${offered}`)
    }
    const byName = Object.fromEntries(auths.map((a) => [a.name, a.lines]))
    assert.deepEqual(byName['101001']!.filter((l) => l.startsWith('password_digest')).map((l) => l.split(':')[0]), ['password_digest=MD5', 'password_digest=SHA-256'])
    assert.ok(byName['101002']!.includes('supported_algorithms_uas=MD5'), 'a terminal with only an MD5 digest offers only MD5')
    assert.ok(!byName['101001']!.some((l) => l.startsWith('supported_algorithms_uas')), 'with both digests the global default decides')
  })

  it('queues.conf: one queue per organization with its terminals as members', () => {
    const queues = parseConf(generateQueues(fixture)).filter((s) => s.name !== 'general')
    assert.deepEqual(queues.map((q) => q.name), ['org101-queue', 'org202-queue'])
    assert.deepEqual(queues[0]!.options.filter(([k]) => k === 'member').map(([, v]) => v), ['PJSIP/101001', 'PJSIP/101002', 'PJSIP/101003'])
  })

  it('extensions.conf: every context an endpoint names exists; every Goto targets a defined context; hints and forwarding', () => {
    const text = generateExtensions(fixture)
    const contexts = parseConf(text).map((s) => s.name)
    for (const s of parseConf(generateSip(fixture)).filter((x) => x.options.some(([k, v]) => k === 'type' && v === 'endpoint'))) {
      const context = s.options.find(([k]) => k === 'context')![1]
      assert.ok(contexts.includes(context), `context ${context} of ${s.name} is not defined`)
    }
    for (const [, target] of text.matchAll(/Goto\(([^,)]+),/g)) assert.ok(contexts.includes(target!), `Goto to undefined context ${target}`)
    assert.match(text, /exten => 001,hint,PJSIP\/101001/)
    assert.match(text, /Goto\(org101-internal,002,1\)/, 'unconditional forwarding to another terminal')
    assert.match(text, /Dial\(PJSIP\/\+77172554433@trunk\)/, 'unavailable forwarding to a local number gets the area code')
    assert.match(text, /Dial\(PJSIP\/202001,15\)/, 'no-answer timeout')
    assert.match(text, /exten => _XXXXXXX,1/, 'Almaty local numbers have 7 digits')
    assert.match(text, /exten => _XXXXXX,1/, 'Astana local numbers have 6 digits')
    assert.match(text, /CF_HOPS\} > 3/, 'hop limit')
    assert.ok(!/^exten => 666/m.test(text), 'an organization name cannot add dialplan')
  })

  it('validation finds forwarding to missing terminals, undialable numbers, long distance without permission, unknown transports', () => {
    const broken: PbxOrganization[] = [{ id: 9, name: 'x', prefix: '909', areaCode: '7172', localDigits: 6, terminals: [
      terminal('909001', '001', { cf_busy_enabled: true, cf_busy_dest: '555' }),
      terminal('909002', '002', { cf_noanswer_enabled: true, cf_noanswer_dest: '87011234567' }),
      terminal('909003', '003', { cf_unavailable_enabled: true, cf_unavailable_dest: '12345' }),
      terminal('909004', '004', { transport: 'transport-sctp' }),
    ] }]
    const errors = validateModel(broken)
    assert.equal(errors.length, 4, errors.join('\n'))
    assert.deepEqual(validateModel(fixture), [])
  })

  it('the transports listen where the deployment says; TLS with its files; a centre behind a router gives its public address outside its networks', () => {
    const sections = (network?: PbxNetwork) =>
      parseConf(generateSip([], { ...defaultPbxOptions, network })).filter((s) => s.options.some(([k, v]) => k === 'type' && v === 'transport'))
    assert.deepEqual(sections().map((s) => [s.name, s.options.find(([k]) => k === 'bind')![1]]),
      [['transport-udp', '0.0.0.0:5060'], ['transport-tcp', '0.0.0.0:5060'], ['transport-ws', '0.0.0.0']], 'as before: every address')
    const behindRouter = sections({
      sipBind: '10.0.0.5:5060', tls: { bind: '10.0.0.5:5061', cert: '/etc/asterisk/keys/pbx.crt', key: '/etc/asterisk/keys/pbx.key' }, websocket: 'wss',
      external: { address: '203.0.113.7', localNets: ['10.0.0.0/8', '192.168.0.0/16'] },
    })
    assert.deepEqual(behindRouter.map((s) => s.name), ['transport-udp', 'transport-tcp', 'transport-tls', 'transport-wss'])
    const tls = behindRouter.find((s) => s.name === 'transport-tls')!.options
    assert.deepEqual(tls.filter(([k]) => ['bind', 'cert_file', 'priv_key_file', 'protocol'].includes(k)),
      [['protocol', 'tls'], ['bind', '10.0.0.5:5061'], ['cert_file', '/etc/asterisk/keys/pbx.crt'], ['priv_key_file', '/etc/asterisk/keys/pbx.key']])
    for (const name of ['transport-udp', 'transport-tcp', 'transport-tls']) {
      const options = behindRouter.find((s) => s.name === name)!.options
      assert.deepEqual(options.filter(([k]) => k.startsWith('external_') || k === 'local_net'), [
        ['external_media_address', '203.0.113.7'], ['external_signaling_address', '203.0.113.7'], ['local_net', '10.0.0.0/8'], ['local_net', '192.168.0.0/16'],
      ], name)
    }
    // a terminal may name the TLS transport only where there is one
    const onTls: PbxOrganization[] = [{ id: 9, name: 'x', prefix: '909', areaCode: '7172', localDigits: 6, terminals: [terminal('909001', '001', { transport: 'transport-tls' })] }]
    assert.equal(validateModel(onTls).length, 1)
    assert.deepEqual(validateModel(onTls, [], { sipBind: '0.0.0.0:5060', websocket: 'ws', tls: { bind: '0.0.0.0:5061', cert: '/c', key: '/k' } }), [])
  })
})
