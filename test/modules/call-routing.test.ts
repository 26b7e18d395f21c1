import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { readFileSync } from 'node:fs'
import { createFfmpegDecoder } from '../../src/integrations/audio/index.js'
import { makeWav, readWav } from '../../src/lib/audio/index.js'
import { floats, level, levelAt, pcm16, sine } from '../helpers/audio.js'
import { extensibleWav, oddChunkWav, unsizedWav } from '../helpers/wav-variants.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { login, makeOrganization, makeUser } from '../helpers/factories.js'

const PASSWORD = 'Abcdefghij0123456789'
type Headers = Record<string, string>
interface Problem { loc: (string | number)[], msg: string, type: string, ctx?: Record<string, unknown> }

const haveFfmpeg = await createFfmpegDecoder().probe() !== undefined
const NO_FFMPEG = 'ffmpeg is not installed (apt-get install ffmpeg): the decoding of MP3, Ogg and M4A is not tried'

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
    const upload = (id: number, language: string, file: Buffer, headers: Headers = manager, type = 'audio/wav') =>
      t.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/${language}`), headers: { ...headers, 'content-type': type }, payload: file })
    const playBack = async (id: number, language: string) => {
      const res = await t.app.inject({ url: url(`prompts/${id}/recordings/${language}`), headers: manager })
      assert.equal(res.statusCode, 200, res.body)
      assert.equal(res.headers['content-type'], 'audio/wav')
      return { file: res.rawPayload, ...readWav(res.rawPayload) }
    }
    const recordingOf = async (id: number, language: string) =>
      (await call('GET', url('prompts'), undefined, manager)).json().find((p: { id: number }) => p.id === id).recordings.find((r: { language: string }) => r.language === language)

    it('a WAV per language (8 and 16 kHz) is kept at its rate and length, its level brought to -20 dBFS, and played back as it is kept', async () => {
      const created = await call('POST', url('prompts'), { name: 'Приветствие' }, manager)
      assert.equal(created.statusCode, 201, created.body)
      const id = created.json().id
      assert.equal(created.json().sound, `appeals/org101/${id}`)
      for (const [language, file] of [['ru', makeWav(8000, tone(8000, 2))], ['kk', makeWav(16_000, tone(16_000))]] as const) {
        const res = await upload(id, language, file)
        assert.equal(res.statusCode, 200, res.body)
      }
      const [prompt] = (await call('GET', url('prompts'), undefined, manager)).json()
      assert.deepEqual(prompt.recordings.map((r: { language: string, sample_rate: number, duration_ms: number }) => [r.language, r.sample_rate, r.duration_ms]), [['kk', 16_000, 1000], ['ru', 8000, 2000]])
      const kk = await playBack(id, 'kk')
      assert.equal(prompt.recordings[0].size_bytes, kk.file.length)
      assert.equal(kk.sampleRate, 16_000)
      assert.ok(Math.abs(level(floats(kk.pcm)) - -20) < 0.5, `the tone at ${level(floats(kk.pcm)).toFixed(2)} dBFS`)
      assert.ok(Math.abs(levelAt(floats(kk.pcm), 16_000, 440) - -20) < 0.5, 'still the 440 Hz tone')
      // the tone was 8000/32768 peak: -15.3 dBFS RMS, lowered 4.7 dB
      assert.deepEqual(prompt.recordings[0].source, { format: 'wav', codec: 'pcm', sample_rate: 16_000, channels: 1, duration_ms: 1000, gain_db: -4.7 })
    })

    it('a WAV Asterisk would refuse or misread as it is (WAVE_FORMAT_EXTENSIBLE, data size 0xFFFFFFFF, an odd chunk) is kept with the canonical 44-byte header, as the plain file is', async () => {
      const id = (await call('POST', url('prompts'), { name: 'Записи разных редакторов' })).json().id
      const samples = tone(8000, 1)
      const plain = makeWav(8000, samples)
      assert.equal((await upload(id, 'ru', plain)).statusCode, 200)
      const canonical = (await playBack(id, 'ru')).file
      for (const [what, file] of [['extensible', extensibleWav(8000, samples)], ['unsized', unsizedWav(8000, samples)], ['odd chunk', oddChunkWav(8000, samples)]] as const) {
        assert.ok(!file.equals(plain), what)
        const res = await upload(id, 'ru', file)
        assert.equal(res.statusCode, 200, `${what}: ${res.body}`)
        const kept = (await playBack(id, 'ru')).file
        assert.ok(kept.equals(canonical), `${what}: kept as the plain file is (${kept.length} bytes, header ${kept.subarray(0, 44).toString('hex')})`)
        assert.deepEqual([(await recordingOf(id, 'ru')).size_bytes, (await recordingOf(id, 'ru')).duration_ms], [canonical.length, 1000], what)
      }
    })

    it('a 44.1 kHz stereo WAV with silence around a 1 kHz tone: 16 kHz mono, the silence trimmed to 0.1 s before and 0.2 s after, the tone at -20 dBFS and nothing folded back from 12 kHz', async () => {
      const id = (await call('POST', url('prompts'), { name: 'Студийная запись' })).json().id
      const rate = 44_100
      const silence = new Float32Array(rate / 2)
      // left: the tone and a 12 kHz whistle above what 16 kHz carries; right: the tone, quieter
      const whistle = sine(rate, 12_000, 1, 0.05)
      const left = Float32Array.from(sine(rate, 1000, 1, 0.3), (s, i) => s + whistle[i]!)
      const right = sine(rate, 1000, 1, 0.1)
      const interleaved = new Int16Array(rate * 2 * 2)
      const channel = (samples: Float32Array, offset: number) => pcm16(Float32Array.from([...silence, ...samples, ...silence])).forEach((s, i) => { interleaved[i * 2 + offset] = s })
      channel(left, 0)
      channel(right, 1)
      const res = await upload(id, 'kk', makeWav(rate, interleaved, { channels: 2 }))
      assert.equal(res.statusCode, 200, res.body)
      const recording = await recordingOf(id, 'kk')
      assert.equal(recording.sample_rate, 16_000)
      assert.ok(Math.abs(recording.duration_ms - 1300) <= 20, `${recording.duration_ms} ms: 1 s of tone, 0.1 s before, 0.2 s after`)
      assert.deepEqual({ ...recording.source, gain_db: undefined }, { format: 'wav', codec: 'pcm', sample_rate: 44_100, channels: 2, duration_ms: 2000, gain_db: undefined })
      const kept = await playBack(id, 'kk')
      assert.equal(kept.sampleRate, 16_000)
      const samples = floats(kept.pcm)
      const heard = samples.subarray(0.15 * 16_000, 1.05 * 16_000)
      assert.ok(Math.abs(levelAt(heard, 16_000, 1000) - -20) < 0.5, `1 kHz at ${levelAt(heard, 16_000, 1000).toFixed(2)} dBFS`)
      assert.ok(levelAt(heard, 16_000, 4000) < -90, `the whistle folded back to 4 kHz: ${levelAt(heard, 16_000, 4000).toFixed(1)} dBFS`)
      assert.ok(level(samples.subarray(0, 0.08 * 16_000)) < -80, 'the lead is silence')
    })

    it('MP3, Ogg/Opus and M4A (AAC) are decoded (ffmpeg), trimmed and levelled; what they were is said', { skip: !haveFfmpeg && NO_FFMPEG }, async () => {
      const id = (await call('POST', url('prompts'), { name: 'Файлы из телефона' })).json().id
      const cases = [['speech.mp3', 'audio/mpeg', 'mp3', 'mp3', 44_100], ['speech.ogg', 'audio/ogg', 'ogg', 'opus', 48_000], ['speech.m4a', 'audio/mp4', 'mp4', 'aac', 44_100]] as const
      for (const [name, type, format, codec, sampleRate] of cases) {
        // a browser may say application/octet-stream or nothing precise: the bytes say what it is
        const res = await upload(id, 'ru', readFileSync(new URL(`../fixtures/audio/${name}`, import.meta.url)), manager, type)
        assert.equal(res.statusCode, 200, `${name}: ${res.body}`)
        const recording = await recordingOf(id, 'ru')
        assert.equal(recording.sample_rate, 16_000, name)
        const { gain_db: gain, duration_ms: sourceMs, ...source } = recording.source
        assert.deepEqual(source, { format, codec, sample_rate: sampleRate, channels: 2 }, name)
        assert.ok(sourceMs > 5200 && sourceMs < 5500, `${name}: the source lasts ${sourceMs} ms`)
        // 3.74 s of speech, 0.1 s before it and 0.2 s after (less what espeak's own edges hold quiet)
        assert.ok(recording.duration_ms > 3500 && recording.duration_ms < 4200, `${name}: kept ${recording.duration_ms} ms`)
        assert.equal(typeof gain, 'number')
        const kept = floats((await playBack(id, 'ru')).pcm)
        const peak = kept.reduce((a, s) => Math.max(a, Math.abs(s)), 0)
        assert.ok(peak <= 10 ** (-1 / 20) + 1e-3 && peak > 0.3, `${name}: peak ${peak.toFixed(3)}`)
      }
    })

    it('without a decoder an MP3 is refused saying so (audio_no_decoder), while a WAV is still taken', async () => {
      const bare = await buildTestApp({ database: t.database, deps: { audioDecoder: createFfmpegDecoder({ program: '/nonexistent/ffmpeg' }) } })
      try {
        const headers = await login(bare.app, await makeUser(t.database.db, { role: 'admin' }))
        const id = (await call('POST', url('prompts'), { name: 'Без ffmpeg' })).json().id
        const mp3 = await bare.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/ru`), headers: { ...headers, 'content-type': 'audio/mpeg' }, payload: readFileSync(new URL('../fixtures/audio/speech.mp3', import.meta.url)) })
        assert.equal(mp3.statusCode, 422, mp3.body)
        assert.deepEqual(detail(mp3).map((p) => [p.loc, p.type, p.ctx]), [[['body'], 'audio_no_decoder', { format: 'mp3' }]])
        assert.match(detail(mp3)[0]!.msg, /ffmpeg/)
        const wav = await bare.app.inject({ method: 'PUT', url: url(`prompts/${id}/recordings/ru`), headers: { ...headers, 'content-type': 'audio/wav' }, payload: makeWav(22_050, tone(22_050), { channels: 1 }) })
        assert.equal(wav.statusCode, 200, wav.body)
      } finally {
        await bare.app.close() // the database is the suite's
      }
    })

    it('422 says what is wrong with the file: not sound, unreadable, silent, empty, too long; 413 over 20 MiB; 415 for another type; nothing is kept', async () => {
      const id = (await call('POST', url('prompts'), { name: 'Плохие файлы' })).json().id
      const cases: [string, Buffer, string, RegExp][] = [
        ['a PNG', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'audio_unknown_format', /not a sound file.*MP3/],
        ['text', Buffer.from('hello, this is not a recording'), 'audio_unknown_format', /not a sound file/],
        ['silence', makeWav(8000, new Int16Array(8000)), 'audio_no_sound', /holds no sound/],
        ['an empty WAV', makeWav(8000, new Int16Array(0)), 'audio_no_sound', /holds no sound/],
        ['a WAV without its format', Buffer.from('RIFF\x04\x00\x00\x00WAVE', 'latin1'), 'wav_no_format', /no format chunk/],
        ['190 s of a tone', makeWav(16_000, tone(16_000, 190)), 'audio_too_long', /180 s/],
        ...(haveFfmpeg ? [['a broken MP3', Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(2000, 0x5a)]), 'audio_unreadable', /MP3 file could not be read/] as [string, Buffer, string, RegExp]] : []),
      ]
      for (const [what, file, type, message] of cases) {
        const res = await upload(id, 'ru', file, admin)
        assert.equal(res.statusCode, 422, `${what}: ${res.body}`)
        const [p] = detail(res)
        assert.deepEqual([p!.loc, p!.type], [['body'], type], what)
        assert.match(p!.msg, message, what)
      }
      assert.equal((await upload(id, 'en', makeWav(8000, tone(8000)), admin)).statusCode, 422)
      assert.equal((await upload(id, 'ru', Buffer.from('x'), admin, 'image/png')).statusCode, 415)
      assert.equal((await upload(id, 'ru', Buffer.alloc(20 * 1024 * 1024 + 1), admin)).statusCode, 413)
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
