import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { makeWav } from '../../src/modules/call-routing/wav.js'
import { extensibleWav, oddChunkWav, unsizedWav } from '../helpers/wav-variants.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'
type Headers = Record<string, string>
interface Problem { loc: (string | number)[], msg: string, type: string, ctx?: Record<string, unknown> }

/** a second of a 440 Hz tone, 16-bit mono */
const tone = (rate: number, seconds = 1) => Int16Array.from({ length: rate * seconds }, (_, i) => Math.round(8000 * Math.sin(2 * Math.PI * 440 * i / rate)))

describe('call routing (/api/organizations/{tenant_id}/queues, lines, menus, schedules, prompts)', () => {
  let t: TestApp
  let admin: Headers
  let manager: Headers
  let otherManager: Headers
  let operator: Headers
  let org: { id: number, prefix: string }
  let other: { id: number, prefix: string }

  before(async () => {
    t = await buildTestApp()
    const db = t.database.db
    admin = await login(t.app, await makeUser(db, { role: 'admin' }))
    org = await makeOrganization(db, { prefix: '101', max_queues: 3 })
    other = await makeOrganization(db, { prefix: '202' })
    manager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: org.id }))
    otherManager = await login(t.app, await makeUser(db, { role: 'manager', organization_id: other.id }))
    operator = await login(t.app, await makeUser(db, { role: 'operator', organization_id: org.id }))
    for (const [tenant, extension] of [[org.id, '001'], [org.id, '002'], [other.id, '001']] as const) {
      const res = await t.app.inject({ method: 'POST', url: `/api/organizations/${tenant}/endpoints/`, headers: admin, payload: { name: `Оператор ${extension}`, extension, password: PASSWORD } })
      assert.equal(res.statusCode, 201, res.body)
    }
  })
  after(() => t.close())

  const url = (what: string, tenant = org.id) => `/api/organizations/${tenant}/${what}`
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, headers: Headers = admin) => t.app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) })
  const detail = (res: { json: () => { detail: Problem[] } }) => res.json().detail
  const fieldOf = (problems: Problem[]) => problems.map((p) => p.loc.slice(1).join('.'))

  describe('queues', () => {
    it('every organization has its default queue, counted in Shape B\'s queues_count', async () => {
      const res = await call('GET', url('queues'))
      assert.equal(res.statusCode, 200, res.body)
      const [q] = res.json()
      assert.equal(q.is_default, true)
      assert.equal(q.asterisk_name, 'org101-queue')
      assert.equal(q.all_terminals, true)
      assert.equal(q.service_level, 20)
      assert.deepEqual(q.overflow, { kind: 'hangup', queue_id: null, terminal_id: null, menu_id: null, prompt_id: null })
      const created = await call('POST', '/api/organizations/', { org_name: 'Новая служба', org_prefix: '303' })
      assert.equal(created.statusCode, 201, created.body)
      assert.equal(created.json().queues_count, 1, 'a new organization comes with its queue')
      const list = (await call('GET', '/api/organizations/')).json() as { id: number, queues_count: number }[]
      assert.equal(list.find((o) => o.id === org.id)!.queues_count, 1)
    })

    it('create (201) with members, options and an overflow; read, change and list it', async () => {
      const res = await call('POST', url('queues'), {
        name: 'Жалобы', strategy: 'leastrecent', members: [{ terminal_id: '101002', penalty: 1 }, { terminal_id: '101001' }], ring_timeout: 20, wrapup_time: 10,
        max_callers: 30, service_level: 30, music_class: 'calm', announce_position: true, max_wait: 300, overflow: { kind: 'terminal', terminal_id: '101001' },
      }, manager)
      assert.equal(res.statusCode, 201, res.body)
      const q = res.json()
      assert.equal(q.asterisk_name, `org101-q${q.id}`)
      assert.deepEqual(q.members, [{ terminal_id: '101001', penalty: 0 }, { terminal_id: '101002', penalty: 1 }])
      assert.deepEqual(q.overflow, { kind: 'terminal', queue_id: null, terminal_id: '101001', menu_id: null, prompt_id: null })
      assert.equal(q.strategy, 'leastrecent')
      assert.equal(q.retry, 5, 'defaults for what is not given')
      const changed = await call('PUT', url(`queues/${q.id}`), { members: [{ terminal_id: '101002' }], overflow: { kind: 'hangup' } }, manager)
      assert.equal(changed.statusCode, 200, changed.body)
      assert.deepEqual(changed.json().members, [{ terminal_id: '101002', penalty: 0 }])
      assert.equal(changed.json().overflow.kind, 'hangup')
      assert.equal(changed.json().name, 'Жалобы', 'a partial change keeps the rest')
      assert.equal((await call('GET', url(`queues/${q.id}`), undefined, manager)).json().max_wait, 300)
    })

    it('422: a destination without its id or with another, bad strategies, timings and members; nothing is written', async () => {
      const before = (await call('GET', url('queues'))).json().length
      const cases: [object, string][] = [
        [{ overflow: { kind: 'queue' } }, 'overflow.queue_id'],
        [{ overflow: { kind: 'hangup', queue_id: 1 } }, 'overflow.queue_id'],
        [{ overflow: { kind: 'terminal', terminal_id: '101001', menu_id: 2 } }, 'overflow.menu_id'],
        [{ overflow: { kind: 'voicemail' } }, 'overflow.kind'],
        [{ strategy: 'roundrobin' }, 'strategy'], [{ ring_timeout: 1 }, 'ring_timeout'], [{ service_level: 0 }, 'service_level'],
        [{ music_class: 'x\n[evil]' }, 'music_class'], [{ members: [{ terminal_id: '1' }] }, 'members.0.terminal_id'],
        [{ members: [{ terminal_id: '101001' }, { terminal_id: '101001' }] }, 'members.1.terminal_id'],
        [{ members: [{ terminal_id: '101001', penalty: -1 }] }, 'members.0.penalty'], [{ name: '' }, 'name'],
      ]
      for (const [patch, field] of cases) {
        const res = await call('POST', url('queues'), { name: 'Проверка', ...patch })
        assert.equal(res.statusCode, 422, `${JSON.stringify(patch)}: ${res.body}`)
        if (field) assert.ok(fieldOf(detail(res)).includes(field), `${JSON.stringify(patch)} -> ${res.body}`)
      }
      assert.equal((await call('GET', url('queues'))).json().length, before)
    })

    it('409: another organization\'s terminal as a member or destination, beyond max_queues; the default queue stays', async () => {
      const foreign = await call('POST', url('queues'), { name: 'Чужой', members: [{ terminal_id: '202001' }] })
      assert.equal(foreign.statusCode, 409, foreign.body)
      assert.match(foreign.json().detail, /members\.0\.terminal_id: terminal 202001/)
      const overflow = await call('POST', url('queues'), { name: 'Чужой', overflow: { kind: 'queue', queue_id: 999999 } })
      assert.equal(overflow.statusCode, 409)
      assert.equal(overflow.json().code, 'not_in_tenant')
      const full = await call('POST', url('queues'), { name: 'Третья' })
      assert.equal(full.statusCode, 201, full.body)
      const beyond = await call('POST', url('queues'), { name: 'Четвёртая' })
      assert.equal(beyond.statusCode, 409)
      assert.equal(beyond.json().code, 'quota_exceeded')
      assert.match(beyond.json().detail, /max_queues 3/)
      const [def] = (await call('GET', url('queues'))).json()
      const removeDefault = await call('DELETE', url(`queues/${def.id}`))
      assert.equal(removeDefault.statusCode, 409)
      assert.equal(removeDefault.json().code, 'default_queue')
      assert.equal((await call('DELETE', url(`queues/${full.json().id}`))).statusCode, 204)
      assert.equal((await call('DELETE', url(`queues/${full.json().id}`))).statusCode, 404)
    })

    it('a queue of another tenant is not found through this tenant\'s path; 403 for another organization\'s manager and for operators', async () => {
      const [theirs] = (await call('GET', url('queues', other.id))).json()
      assert.equal((await call('GET', url(`queues/${theirs.id}`))).statusCode, 404)
      assert.equal((await call('PUT', url(`queues/${theirs.id}`), { name: 'Моя' })).statusCode, 404)
      assert.equal((await call('GET', url('queues'), undefined, otherManager)).statusCode, 403)
      assert.equal((await call('GET', url('queues'), undefined, operator)).statusCode, 403)
      assert.equal((await t.app.inject({ url: url('queues') })).statusCode, 401)
      assert.equal((await call('GET', url('queues', 999999))).statusCode, 404)
    })
  })

  describe('prompts', () => {
    it('upload a WAV per language (8 and 16 kHz), list it with its duration, play it back byte for byte', async () => {
      const created = await call('POST', url('prompts'), { name: 'Приветствие' }, manager)
      assert.equal(created.statusCode, 201, created.body)
      const id = created.json().id
      assert.equal(created.json().sound, `appeals/org101/${id}`)
      const ru = makeWav(8000, tone(8000, 2))
      const kk = makeWav(16_000, tone(16_000))
      for (const [language, file] of [['ru', ru], ['kk', kk]] as const) {
        const res = await t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/${language}`), headers: { ...manager, 'content-type': 'audio/wav' }, payload: file })
        assert.equal(res.statusCode, 200, res.body)
      }
      const [prompt] = (await call('GET', url('prompts'), undefined, manager)).json()
      assert.deepEqual(prompt.recordings.map((r: { language: string, sample_rate: number, duration_ms: number, size_bytes: number }) => [r.language, r.sample_rate, r.duration_ms, r.size_bytes]),
        [['kk', 16_000, 1000, kk.length], ['ru', 8000, 2000, ru.length]])
      const back = await t.app.inject({ url: url(`prompts/${id}/recordings/kk`), headers: manager })
      assert.equal(back.statusCode, 200)
      assert.equal(back.headers['content-type'], 'audio/wav')
      assert.ok(back.rawPayload.equals(kk))
    })

    it('a WAV Asterisk would refuse or misread as it is (WAVE_FORMAT_EXTENSIBLE, data size 0xFFFFFFFF, an odd chunk) is kept with the canonical 44-byte header, its samples unchanged', async () => {
      const id = (await call('POST', url('prompts'), { name: 'Записи разных редакторов' })).json().id
      const samples = tone(8000, 1)
      const canonical = makeWav(8000, samples)
      for (const [what, file] of [['extensible', extensibleWav(8000, samples)], ['unsized', unsizedWav(8000, samples)], ['odd chunk', oddChunkWav(8000, samples)]] as const) {
        assert.ok(!file.equals(canonical), what)
        const res = await t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/ru`), headers: { ...manager, 'content-type': 'audio/wav' }, payload: file })
        assert.equal(res.statusCode, 200, `${what}: ${res.body}`)
        const kept = (await t.app.inject({ url: url(`prompts/${id}/recordings/ru`), headers: manager })).rawPayload
        assert.ok(kept.equals(canonical), `${what}: kept as the canonical file (${kept.length} bytes, header ${kept.subarray(0, 44).toString('hex')})`)
        const [recording] = (await call('GET', url('prompts'), undefined, manager)).json().find((p: { id: number }) => p.id === id).recordings
        assert.deepEqual([recording.size_bytes, recording.duration_ms], [canonical.length, 1000], what)
      }
    })

    it('422 says what the file is and what is accepted: stereo, 44.1 kHz, 8-bit, not PCM, not a WAV, empty; nothing is kept', async () => {
      const id = (await call('POST', url('prompts'), { name: 'Плохие файлы' })).json().id
      // the type and what was found, for the console to say it in Russian or Kazakh
      const found = (f: Partial<{ pcm: boolean, audio_format: number, bits: number, channels: number, sample_rate: number }>) => ({ found: { pcm: true, audio_format: 1, bits: 16, channels: 1, sample_rate: 8000, ...f } })
      const cases: [Buffer, RegExp, string, object | undefined][] = [
        [makeWav(8000, tone(8000), { channels: 2 }), /2 channels/, 'wav_format', found({ channels: 2 })],
        [makeWav(44_100, tone(44_100)), /44100 Hz/, 'wav_format', found({ sample_rate: 44_100 })],
        [makeWav(8000, tone(8000), { bits: 8 }), /8-bit PCM/, 'wav_format', found({ bits: 8 })],
        [makeWav(8000, tone(8000), { tag: 6 }), /audio format 6 \(not PCM\)/, 'wav_format', found({ pcm: false, audio_format: 6 })],
        [Buffer.from('ID3\x03 this is an mp3'), /Not a WAV file/, 'wav_not_wav', undefined],
        [makeWav(8000, new Int16Array(0)), /holds no sound/, 'wav_no_sound', undefined],
      ]
      for (const [file, message, type, ctx] of cases) {
        const res = await t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/ru`), headers: { ...admin, 'content-type': 'audio/wav' }, payload: file })
        assert.equal(res.statusCode, 422, res.body)
        const [p] = detail(res)
        assert.deepEqual(p!.loc, ['body'])
        assert.match(p!.msg, message)
        assert.match(p!.msg, /16-bit PCM, mono, at 8000 or 16000 Hz/)
        assert.equal(p!.type, type)
        assert.deepEqual(p!.ctx, ctx)
      }
      assert.equal((await t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/en`), headers: { ...admin, 'content-type': 'audio/wav' }, payload: makeWav(8000, tone(8000)) })).statusCode, 422)
      assert.equal((await t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/ru`), headers: { ...admin, 'content-type': 'image/png' }, payload: Buffer.from('x') })).statusCode, 415)
      const big = await t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/ru`), headers: { ...admin, 'content-type': 'audio/wav' }, payload: makeWav(16_000, tone(16_000, 140)) })
      assert.equal(big.statusCode, 413)
      assert.deepEqual((await call('GET', url('prompts'))).json().find((p: { id: number }) => p.id === id).recordings, [])
      assert.equal((await t.app.inject({ url: url(`prompts/${id}/recordings/ru`), headers: admin })).statusCode, 404)
    })
  })

  describe('schedules, menus and lines', () => {
    let prompt: number
    let queue: number
    let schedule: number
    before(async () => {
      prompt = (await call('POST', url('prompts'), { name: 'Выбор языка' })).json().id
      queue = (await call('GET', url('queues'))).json()[0].id
    })

    it('schedules: the working calendar, 24/7, weekly hours; 422 for hours that overlap, run backwards or belong to no weekly schedule', async () => {
      const calendar = await call('POST', url('schedules'), { name: 'Рабочее время центра', kind: 'calendar' })
      assert.equal(calendar.statusCode, 201, calendar.body)
      schedule = calendar.json().id
      assert.equal(calendar.json().asterisk_name, `org101-sched${schedule}`)
      const weekly = await call('POST', url('schedules'), { name: 'Дежурная', kind: 'weekly', hours: [{ weekday: 6, opens: '10:00', closes: '14:00' }, { weekday: 1, opens: '08:00', closes: '24:00' }] })
      assert.equal(weekly.statusCode, 201, weekly.body)
      assert.deepEqual(weekly.json().hours, [{ weekday: 1, opens: '08:00', closes: '24:00' }, { weekday: 6, opens: '10:00', closes: '14:00' }])
      const cases: [object, string][] = [
        [{ kind: 'weekly', hours: [{ weekday: 1, opens: '18:00', closes: '09:00' }] }, 'hours.0.closes'],
        [{ kind: 'weekly', hours: [{ weekday: 1, opens: '09:00', closes: '13:00' }, { weekday: 1, opens: '12:00', closes: '18:00' }] }, 'hours.1'],
        [{ kind: 'always', hours: [{ weekday: 1, opens: '09:00', closes: '13:00' }] }, 'hours'],
        [{ kind: 'weekly', hours: [{ weekday: 8, opens: '09:00', closes: '13:00' }] }, 'hours.0.weekday'],
        [{ kind: 'weekly', hours: [{ weekday: 1, opens: '9:00', closes: '13:00' }] }, 'hours.0.opens'],
        [{ kind: 'sometimes' }, 'kind'],
      ]
      for (const [patch, field] of cases) {
        const res = await call('POST', url('schedules'), { name: 'Проверка', ...patch })
        assert.equal(res.statusCode, 422, `${JSON.stringify(patch)}: ${res.body}`)
        assert.ok(fieldOf(detail(res)).includes(field), `${JSON.stringify(patch)} -> ${res.body}`)
      }
      const toAlways = await call('PUT', url(`schedules/${weekly.json().id}`), { kind: 'always' })
      assert.equal(toAlways.statusCode, 200, toAlways.body)
      assert.deepEqual(toAlways.json().hours, [], 'a schedule that stops being weekly loses its hours')
      assert.equal((await call('PUT', url(`schedules/${weekly.json().id}`), { kind: 'weekly' })).statusCode, 422, 'weekly again needs its hours')
    })

    it('a language menu: digits set kk or ru and go to the queue; 422 for a digit given twice; 409 for a destination of another tenant', async () => {
      const theirQueue = (await call('GET', url('queues', other.id))).json()[0].id
      const menu = await call('POST', url('menus'), {
        name: 'Язык', prompt_id: prompt, timeout: 7,
        options: [{ digit: '1', language: 'kk', destination: { kind: 'queue', queue_id: queue } }, { digit: '2', language: 'ru', destination: { kind: 'queue', queue_id: queue } }],
        timeout_destination: { kind: 'queue', queue_id: queue }, invalid_destination: { kind: 'announcement', prompt_id: prompt },
      })
      assert.equal(menu.statusCode, 201, menu.body)
      const m = menu.json()
      assert.equal(m.asterisk_name, `org101-menu${m.id}`)
      assert.deepEqual(m.options.map((o: { digit: string, language: string }) => [o.digit, o.language]), [['1', 'kk'], ['2', 'ru']])
      assert.equal(m.attempts, 2)
      const twice = await call('POST', url('menus'), { name: 'Дважды', options: [{ digit: '1', destination: { kind: 'hangup' } }, { digit: '1', destination: { kind: 'hangup' } }] })
      assert.equal(twice.statusCode, 422)
      assert.deepEqual(fieldOf(detail(twice)), ['options.1.digit'])
      const bad = await call('POST', url('menus'), { name: 'Плохие', options: [{ digit: 'A', destination: { kind: 'hangup' } }, { digit: '3', language: 'en', destination: { kind: 'hangup' } }] })
      assert.equal(bad.statusCode, 422)
      const foreign = await call('POST', url('menus'), { name: 'Чужая', options: [{ digit: '1', destination: { kind: 'queue', queue_id: theirQueue } }] })
      assert.equal(foreign.statusCode, 409, foreign.body)
      assert.match(foreign.json().detail, new RegExp(`options\\.0\\.destination\\.queue_id: queue ${theirQueue}`))
      assert.equal((await call('GET', url('menus'))).json().length, 1, 'nothing of the refused menus was written')
    })

    it('lines: a number owned by one organization (409 for a second), open by a schedule, to a menu; a queue, prompt or schedule in use cannot go (409)', async () => {
      const [menu] = (await call('GET', url('menus'))).json()
      const line = await call('POST', url('lines'), {
        number: '109', name: 'Единый номер', schedule_id: schedule, destination: { kind: 'menu', menu_id: menu.id }, closed_destination: { kind: 'announcement', prompt_id: prompt },
      }, manager)
      assert.equal(line.statusCode, 201, line.body)
      assert.deepEqual(line.json().destination, { kind: 'menu', queue_id: null, terminal_id: null, menu_id: menu.id, prompt_id: null })
      const taken = await call('POST', url('lines', other.id), { number: '109', name: 'Тоже 109', destination: { kind: 'hangup' } }, otherManager)
      assert.equal(taken.statusCode, 409, taken.body)
      assert.match(taken.json().detail, /number '109' already exists/)
      const foreignSchedule = await call('POST', url('lines', other.id), { number: '+77172000109', name: 'Астана', schedule_id: schedule, destination: { kind: 'hangup' } }, otherManager)
      assert.equal(foreignSchedule.statusCode, 409)
      for (const [path, name] of [[`queues/${queue}`, 'default'], [`prompts/${prompt}`, 'prompt'], [`schedules/${schedule}`, 'schedule'], [`menus/${menu.id}`, 'menu']] as const) {
        const res = await call('DELETE', url(path))
        assert.equal(res.statusCode, 409, `${name}: ${res.body}`)
      }
      // each refusal names what uses the item, in words and as items the console links to
      const lineUser = { kind: 'line', id: line.json().id, name: '109 Единый номер' }
      const menuUser = { kind: 'menu', id: menu.id, name: menu.name }
      for (const [path, users, said] of [
        [`menus/${menu.id}`, [lineUser], 'line «109 Единый номер»'], [`schedules/${schedule}`, [lineUser], 'line «109 Единый номер»'],
        [`prompts/${prompt}`, [lineUser, menuUser], `line «109 Единый номер», menu «${menu.name}»`],
      ] as const) {
        const res = await call('DELETE', url(path))
        assert.deepEqual([res.json().code, res.json().used_by], ['still_referenced', users], `${path}: ${res.body}`)
        assert.equal(res.json().detail, `Still used by ${said}: change them first`)
      }
      const menuQueue = menu.options[0].destination.queue_id as number
      const queueRefused = await call('DELETE', url(`queues/${menuQueue}`))
      if (menuQueue !== queue) {
        assert.equal(queueRefused.statusCode, 409)
        assert.deepEqual(queueRefused.json().used_by, [{ kind: 'menu', id: menu.id, name: menu.name }])
      }
      const terminal = await call('PUT', url(`lines/${line.json().id}`), { destination: { kind: 'terminal', terminal_id: '101002' } })
      assert.equal(terminal.statusCode, 200, terminal.body)
      assert.equal((await t.app.inject({ method: 'DELETE', url: url('endpoints/101002'), headers: admin })).statusCode, 409, 'a terminal a line rings stays')
      for (const bad of [{ number: '1' }, { number: '109a' }, { number: '+7 717 200' }]) {
        assert.equal((await call('PUT', url(`lines/${line.json().id}`), bad)).statusCode, 422, JSON.stringify(bad))
      }
      assert.equal((await call('DELETE', url(`lines/${line.json().id}`), undefined, otherManager)).statusCode, 403)
      assert.equal((await call('DELETE', url(`lines/${line.json().id}`, other.id), undefined, otherManager)).statusCode, 404, 'another tenant\'s line is not found through its own path')
      assert.equal((await call('DELETE', url(`lines/${line.json().id}`))).statusCode, 204)
      assert.equal((await call('DELETE', url(`schedules/${schedule}`))).statusCode, 204, 'free once the line is gone')
    })
  })
})
