// The line's reports as files (lib/table-export writes them): the calls of a period, and the queue
// figures of a period by day, queue, 30-minute interval or operator. The words are the console's.
import { exportStream, inOneBatch, type ExportColumn, type ExportFormat, type ExportLanguage, type ExportTable } from '../../lib/table-export.js'
import type { LineCallRow } from './queries.js'
import type { kpiBreakdownNames, LineKpis } from './schemas.js'
import type { CallOutcome } from './tracker.js'

type Words = Record<ExportLanguage, string>

const outcomeWords: Record<CallOutcome, Words> = {
  waiting: { ru: 'Ожидает', kk: 'Күтуде' },
  answered: { ru: 'Отвечен', kk: 'Жауап берілді' },
  abandoned: { ru: 'Брошен', kk: 'Тастап кетті' },
  timed_out: { ru: 'Истекло время ожидания', kk: 'Күту уақыты бітті' },
  ended: { ru: 'Без очереди', kk: 'Кезексіз' },
  unobserved: { ru: 'Исход неизвестен (разрыв связи с АТС)', kk: 'Нәтижесі белгісіз (АТС-пен байланыс үзілді)' },
}
const endedByWords: Record<string, Words> = {
  caller: { ru: 'Звонящий', kk: 'Қоңырау шалушы' },
  agent: { ru: 'Оператор', kk: 'Оператор' },
  transfer: { ru: 'Переведён', kk: 'Ауыстырылды' },
}

export const callsTable: ExportTable<LineCallRow> = {
  sheet: { ru: 'Звонки', kk: 'Қоңыраулар' },
  columns: [
    { ru: 'Начало', kk: 'Басталуы', width: 17, value: (c, at) => at(c.started_at) },
    { ru: 'Номер звонящего', kk: 'Қоңырау шалушының нөмірі', width: 16, value: (c) => c.caller_number ?? '' },
    { ru: 'Линия', kk: 'Желі', width: 10, value: (c) => c.line ?? '' },
    { ru: 'Язык', kk: 'Тілі', width: 6, value: (c) => c.language ?? '' },
    { ru: 'Очередь', kk: 'Кезек', width: 16, value: (c) => c.queue ?? '' },
    { ru: 'В очереди с', kk: 'Кезекке тұрды', width: 17, value: (c, at) => at(c.joined_at) },
    { ru: 'Итог', kk: 'Нәтижесі', width: 22, value: (c, _at, lang) => outcomeWords[c.outcome][lang] },
    { ru: 'Ожидание, с', kk: 'Күту, с', width: 10, value: (c) => c.hold_seconds },
    { ru: 'Ответил', kk: 'Жауап берді', width: 16, value: (c) => c.answered_by ?? '' },
    { ru: 'Разговор, с', kk: 'Сөйлесу, с', width: 10, value: (c) => c.talk_seconds },
    { ru: 'Завершил', kk: 'Аяқтаған', width: 14, value: (c, _at, lang) => (c.ended_by === null ? '' : endedByWords[c.ended_by]?.[lang] ?? c.ended_by) },
    { ru: 'Окончание', kk: 'Аяқталуы', width: 17, value: (c, at) => at(c.ended_at) },
    { ru: 'Linkedid', kk: 'Linkedid', width: 16, value: (c) => c.linkedid },
  ],
}

type Figures = LineKpis['totals']
const figureColumns: ExportColumn<Figures>[] = [
  { ru: 'Поступило', kk: 'Түскені', width: 10, value: (f) => f.offered },
  { ru: 'Отвечено', kk: 'Жауап берілгені', width: 10, value: (f) => f.answered },
  { ru: 'Брошено', kk: 'Тастап кеткені', width: 10, value: (f) => f.abandoned },
  { ru: 'Брошено быстро', kk: 'Тез тастап кеткені', width: 10, value: (f) => f.short_abandoned },
  { ru: 'Истекло ожидание', kk: 'Күту уақыты бітті', width: 10, value: (f) => f.timed_out },
  { ru: 'Отвечено в пределах SL', kk: 'SL ішінде жауап берілгені', width: 12, value: (f) => f.answered_within_service_level },
  { ru: 'Уровень обслуживания, %', kk: 'Қызмет деңгейі, %', width: 12, value: (f) => f.service_level },
  { ru: 'Уровень обслуживания с брошенными, %', kk: 'Тастап кеткендермен қызмет деңгейі, %', width: 14, value: (f) => f.service_level_with_abandoned },
  { ru: 'Ср. ожидание ответа, с', kk: 'Жауапты орташа күту, с', width: 12, value: (f) => f.average_speed_of_answer },
  { ru: 'Ср. разговор, с', kk: 'Орташа сөйлесу, с', width: 12, value: (f) => f.average_talk },
  { ru: 'Ср. обработка, с', kk: 'Орташа өңдеу, с', width: 12, value: (f) => f.average_handling },
  { ru: 'Макс. ожидание, с', kk: 'Ең ұзақ күту, с', width: 12, value: (f) => f.longest_hold },
]
/** a breakdown's key column, then the figures */
const figuresTable = <Row extends Figures>(sheet: Words, key: ExportColumn<Row>): ExportTable<Row> => ({ sheet, columns: [key, ...figureColumns as ExportColumn<Row>[]] })

type Operator = LineKpis['operators'][number]
const stateColumn = (state: keyof Operator['state_seconds'], words: Words): ExportColumn<Operator> => ({ ...words, width: 12, value: (o) => o.state_seconds[state] })

/** a breakdown's rows as a file */
const file = <Row>(rows: Row[], table: ExportTable<Row>) => ({
  rows: rows.length,
  stream: (format: ExportFormat, lang: ExportLanguage, timeZone: string) => exportStream(inOneBatch(rows), table, format, lang, timeZone),
})

/** the figures of a period in one breakdown, as a file */
export const kpiFiles: Record<typeof kpiBreakdownNames[number], (k: LineKpis) => ReturnType<typeof file>> = {
  day: (k) => file(k.days, figuresTable({ ru: 'По дням', kk: 'Күндер бойынша' }, { ru: 'День', kk: 'Күні', width: 12, value: (d) => d.day })),
  queue: (k) => file(k.queues, figuresTable({ ru: 'По очередям', kk: 'Кезектер бойынша' }, { ru: 'Очередь', kk: 'Кезек', width: 16, value: (q) => q.queue })),
  interval: (k) => file(k.intervals, figuresTable({ ru: 'По получасам', kk: 'Жарты сағат бойынша' }, { ru: 'Интервал', kk: 'Аралық', width: 17, value: (i, at) => at(new Date(i.start)) })),
  operator: (k) => file(k.operators, {
    sheet: { ru: 'По операторам', kk: 'Операторлар бойынша' },
    columns: [
      { ru: 'Оператор', kk: 'Оператор', width: 24, value: (o) => o.name ?? '' },
      { ru: 'Терминал', kk: 'Терминал', width: 14, value: (o) => o.terminal_id ?? o.interface },
      { ru: 'Звонков', kk: 'Қоңыраулар', width: 10, value: (o) => o.calls },
      { ru: 'Разговор, с', kk: 'Сөйлесу, с', width: 12, value: (o) => o.talk_seconds },
      { ru: 'Обработка после разговора, с', kk: 'Әңгімеден кейінгі өңдеу, с', width: 14, value: (o) => o.wrapup_seconds },
      { ru: 'Ср. обработка, с', kk: 'Орташа өңдеу, с', width: 12, value: (o) => o.average_handling },
      stateColumn('ready', { ru: 'Готов, с', kk: 'Дайын, с' }),
      stateColumn('on_call', { ru: 'На звонке, с', kk: 'Сөйлесуде, с' }),
      stateColumn('wrap_up', { ru: 'Обработка, с', kk: 'Өңдеуде, с' }),
      { ru: 'Перерывы, с', kk: 'Үзілістер, с', width: 12, value: (o) => o.pause_seconds },
      { ru: 'Перерывы по причинам', kk: 'Үзілістер себептері бойынша', width: 30, value: (o) => o.pauses.map((p) => `${p.reason || '—'}: ${p.seconds}`).join('; ') },
      { ru: 'Занятость, %', kk: 'Жүктемесі, %', width: 10, value: (o) => o.occupancy },
    ],
  }),
}
