// Issue 16, item 4: the persons search over a million persons (BENCH_PERSONS; 100,000 on the embedded
// database), one connection, a mix of what operators type: surnames, names, parts of names, a
// misspelling, phones and IINs whole or in part, e-mails. Latency per request over real HTTP.
import { performance } from 'node:perf_hooks'
import { createAdmin } from '../src/modules/auth/bootstrap.js'
import { benchDatabase, rawQuery, startService } from './harness.js'

const SURNAMES = ['Ахметов', 'Омаров', 'Сулейменов', 'Касымов', 'Ибраев', 'Жумабаев', 'Нурланов', 'Сейткали', 'Абенов', 'Бекмаганбетов', 'Тулеубаев', 'Есенов',
  'Мухамедиев', 'Кенжебаев', 'Смагулов', 'Байжанов', 'Садыков', 'Исмаилов', 'Оспанов', 'Рахимов', 'Калиев', 'Мусин', 'Шарипов', 'Ержанов', 'Амангельдиев',
  'Жаксыбеков', 'Токтаров', 'Утепов', 'Досмухамедов', 'Искаков', 'Бейсенов', 'Мамыров', 'Нургалиев', 'Серикбаев', 'Тлеубердиев', 'Аубакиров', 'Габдуллин',
  'Даулетов', 'Ерменов', 'Жолдасбеков', 'Кудайбергенов', 'Муканов', 'Нуркенов', 'Сарсенбаев', 'Турсынов', 'Уалиханов', 'Хамитов', 'Шаймерденов', 'Ыбыраев',
  'Иванов', 'Петров', 'Сидоров', 'Кузнецов', 'Попов', 'Васильев', 'Смирнов', 'Морозов', 'Волков', 'Ким', 'Пак', 'Цой', 'Шевченко', 'Бондаренко', 'Мельников']
const MEN = ['Айдар', 'Ерлан', 'Нурсултан', 'Арман', 'Данияр', 'Бауыржан', 'Ержан', 'Тимур', 'Руслан', 'Марат', 'Серик', 'Болат', 'Кайрат', 'Асхат', 'Мурат',
  'Нурлан', 'Талгат', 'Бахытжан', 'Ерболат', 'Ермек', 'Азамат', 'Дамир', 'Алишер', 'Санжар', 'Алексей', 'Сергей', 'Дмитрий', 'Андрей', 'Игорь', 'Виктор']
const WOMEN = ['Асель', 'Динара', 'Мадина', 'Жанар', 'Гульнара', 'Салтанат', 'Айгерим', 'Камила', 'Айжан', 'Алия', 'Жанна', 'Сауле', 'Гульмира', 'Дана',
  'Меруерт', 'Акмарал', 'Томирис', 'Зарина', 'Аружан', 'Назерке', 'Ольга', 'Татьяна', 'Ирина', 'Елена', 'Наталья', 'Светлана', 'Марина', 'Анна']
const FATHERS = ['Серик', 'Марат', 'Болат', 'Нурлан', 'Ерлан', 'Кайрат', 'Асан', 'Бахытжан', 'Талгат', 'Мурат', 'Ермек', 'Амангельды', 'Жумабай', 'Сапар']

/** persons with names drawn from the lists above, unique IINs spread over the whole range (not in id order), phones, an e-mail for one in five, one in fifty inactive */
async function insertPersons (sql: ReturnType<typeof rawQuery>, first: number, count: number): Promise<void> {
  await sql(`insert into persons (full_name, iin, phone, email, is_active)
    select case when w then s || 'а' else s end || ' ' || g || ' ' || case when w then f || 'овна' else f || 'ович' end,
      lpad(((i + $6) * 982451653 % 1000000000000)::text, 12, '0'), '+77' || lpad((floor(random() * 1e9))::bigint::text, 9, '0'),
      case when random() < 0.2 then 'mail' || floor(random() * 1e7)::int || '@inbox.kz' end, random() > 0.02
    from (select i, random() < 0.5 as w, $1::text[] as sn, $2::text[] as mn, $3::text[] as wn, $4::text[] as fn from generate_series(1::bigint, $5::bigint) i) r,
      lateral (select sn[1 + floor(random() * cardinality(sn))::int + 0 * i] as s, (case when w then wn else mn end)[1 + floor(random() * 28)::int + 0 * i] as g,
        fn[1 + floor(random() * cardinality(fn))::int + 0 * i] as f) names`, [SURNAMES, MEN, WOMEN, FATHERS, count, first])
}

interface Sample { full_name: string, iin: string, phone: string, email: string | null }

/** what operators type, made from persons that exist (and a few that do not) */
function queries (samples: Sample[]): Record<string, string[]> {
  const words = samples.map((s) => s.full_name.split(' '))
  const misspell = (w: string) => `${w.slice(0, 2)}и${w.slice(3)}`
  return {
    surname: words.map((w) => w[0]!),
    'surname and name': words.map((w) => `${w[0]} ${w[1]}`),
    'full name': samples.map((s) => s.full_name),
    'name and patronymic': words.map((w) => `${w[1]} ${w[2]}`),
    'start of a surname': words.map((w) => w[0]!.slice(0, 4)),
    'misspelt surname and name': words.map((w) => `${misspell(w[0]!)} ${w[1]}`),
    'phone, as dialled': samples.map((s) => `8 ${s.phone.slice(2, 5)} ${s.phone.slice(5, 8)} ${s.phone.slice(8)}`),
    'last 4 phone digits': samples.map((s) => s.phone.slice(-4)),
    'last 7 phone digits': samples.map((s) => s.phone.slice(-7)),
    IIN: samples.map((s) => s.iin),
    'IIN, first 6 digits': samples.map((s) => s.iin.slice(0, 6)),
    'e-mail part': samples.filter((s) => s.email).map((s) => s.email!.slice(0, 9)),
    'nobody has this name': samples.map((_, i) => `Несуществующий ${i}`),
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

export async function benchPersons (): Promise<void> {
  const database = await benchDatabase('persons', { keep: true })
  const sql = rawQuery(database)
  const target = Number(process.env.BENCH_PERSONS ?? (database.kind === 'postgres' ? 1_000_000 : 100_000))
  const [{ count }] = await sql<{ count: number }>('select count(*)::int as count from persons') as [{ count: number }]
  if (count < target) {
    const started = performance.now()
    for (let left = target - count; left > 0; left -= 100_000) await insertPersons(sql, target - left, Math.min(left, 100_000)) // within the statement timeout
    await sql('analyze persons')
    process.stdout.write(`inserted ${target - count} persons in ${((performance.now() - started) / 1000).toFixed(0)} s\n`)
  }
  await sql('delete from users where email = $1', ['persons-bench@appeals.kz'])
  await createAdmin(database.db, 'persons-bench@appeals.kz', 'Bench-password-1', false)
  const { app, url } = await startService(database)
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'persons-bench@appeals.kz', password: 'Bench-password-1' }) })
  const headers = { authorization: `Bearer ${(await login.json() as { access_token: string }).access_token}` }
  const samples = await sql<Sample>('select full_name, iin, phone, email from persons where is_active and iin is not null and phone is not null order by random() limit 100')

  const lines = [
    `\nPersons search over ${Math.max(count, target).toLocaleString('en')} persons on ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'} (one connection, sequential, limit 50)`,
    '| what is typed | requests | p50 ms | p99 ms | max ms | mean results |', '|---|---:|---:|---:|---:|---:|',
  ]
  const all: number[] = []
  for (const [kind, list] of Object.entries(queries(samples))) {
    const times: number[] = []
    let results = 0
    for (const round of [0, 1, 2]) {
      for (const q of list) {
        const started = performance.now()
        const res = await fetch(`${url}/api/references/persons?q=${encodeURIComponent(q)}`, { headers })
        const body = await res.json() as unknown[]
        if (res.status !== 200) throw new Error(`${q}: ${res.status} ${JSON.stringify(body)}`)
        if (round > 0) { times.push(performance.now() - started); results += body.length } // round 0 warms the caches
      }
    }
    times.sort((a, b) => a - b)
    all.push(...times)
    lines.push(`| ${kind} | ${times.length} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.99).toFixed(1)} | ${times.at(-1)!.toFixed(1)} | ${(results / times.length).toFixed(1)} |`)
  }
  all.sort((a, b) => a - b)
  lines.push(`| **all** | ${all.length} | ${percentile(all, 0.5).toFixed(1)} | ${percentile(all, 0.99).toFixed(1)} | ${all.at(-1)!.toFixed(1)} | |`)
  process.stdout.write(`${lines.join('\n')}\n`)
  await app.close()
  await database.close()
}
