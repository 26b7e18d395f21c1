// The line's reports as files (lib/table-export writes them): the calls of a period, and the queue
// figures of a period by day, queue, 30-minute interval or operator. The words are the console's.
import { exportStream, inOneBatch, type ExportColumn, type ExportFormat, type ExportLanguage, type ExportTable } from '../../lib/table-export.js'
import type { LineCallRow } from './queries.js'
import type { kpiBreakdownNames, LineKpis } from './schemas.js'
import type { CallOutcome, MenuExit } from './tracker.js'

type Words = Record<ExportLanguage, string>

const outcomeWords: Record<CallOutcome, Words> = {
  waiting: { ru: 'Ожидает', kk: 'Күтуде' },
  answered: { ru: 'Отвечен', kk: 'Жауап берілді' },
  abandoned: { ru: 'Брошен', kk: 'Тастап кетті' },
  timed_out: { ru: 'Истекло время ожидания', kk: 'Күту уақыты бітті' },
  ended: { ru: 'Положил трубку до очереди', kk: 'Кезекке дейін тұтқаны қойды' },
  unobserved: { ru: 'Исход неизвестен (разрыв связи с АТС)', kk: 'Нәтижесі белгісіз (АТС-пен байланыс үзілді)' },
  entered: { ru: 'На линии', kk: 'Желіде' },
  announced: { ru: 'Прослушал сообщение', kk: 'Хабарландыру тыңдады' },
  terminal: { ru: 'Направлен на телефон', kk: 'Телефонға бағытталды' },
  hangup: { ru: 'Завершён маршрутом', kk: 'Бағыттау бойынша аяқталды' },
  refused: { ru: 'Номер не обслуживается', kk: 'Нөмір қызмет көрсетілмейді' },
  callback: { ru: 'Заказал обратный звонок', kk: 'Кері қоңырауға тапсырыс берді' },
}
const menuExitWords: Record<MenuExit, Words> = {
  choice: { ru: 'Выбор', kk: 'Таңдау' },
  timeout: { ru: 'Нет выбора', kk: 'Таңдау жоқ' },
  invalid: { ru: 'Неверная цифра', kk: 'Қате цифр' },
  hangup: { ru: 'Положил трубку в меню', kk: 'Мәзірде тұтқаны қойды' },
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
    { ru: 'Вне графика', kk: 'Кестеден тыс', width: 8, value: (c, _at, lang) => (c.closed ? { ru: 'да', kk: 'иә' }[lang] : '') },
    { ru: 'Меню', kk: 'Мәзір', width: 18, value: (c, _at, lang) => (c.menu_exit === null ? '' : `${menuExitWords[c.menu_exit as MenuExit][lang]}${c.menu_choice === null ? '' : ` ${c.menu_choice}`}`) },
    { ru: 'Язык', kk: 'Тілі', width: 6, value: (c) => c.language ?? '' },
    { ru: 'Очередь', kk: 'Кезек', width: 16, value: (c) => c.queue ?? '' },
    { ru: 'В очереди с', kk: 'Кезекке тұрды', width: 17, value: (c, at) => at(c.joined_at) },
    { ru: 'Итог', kk: 'Нәтижесі', width: 22, value: (c, _at, lang) => outcomeWords[c.outcome][lang] },
    { ru: 'Ожидание, с', kk: 'Күту, с', width: 10, value: (c) => c.hold_seconds },
    { ru: 'Ответил', kk: 'Жауап берді', width: 16, value: (c) => c.answered_by ?? '' },
    { ru: 'Разговор, с', kk: 'Сөйлесу, с', width: 10, value: (c) => c.talk_seconds },
    { ru: 'Завершил', kk: 'Аяқтаған', width: 14, value: (c, _at, lang) => (c.ended_by === null ? '' : endedByWords[c.ended_by]?.[lang] ?? c.ended_by) },
    { ru: 'Оценка', kk: 'Баға', width: 7, value: (c) => c.rating },
    { ru: 'Окончание', kk: 'Аяқталуы', width: 17, value: (c, at) => at(c.ended_at) },
    { ru: 'Linkedid', kk: 'Linkedid', width: 16, value: (c) => c.linkedid },
  ],
}

type Figures = LineKpis['totals']
/** the citizens' scores of a breakdown's member: the queues' and the operators' */
const ratingColumns = <Row extends { ratings: number, average_rating: number | null, rated_share: number | null }>(): ExportColumn<Row>[] => [
  { ru: 'Оценок', kk: 'Бағалар', width: 8, value: (f) => f.ratings },
  { ru: 'Ср. оценка', kk: 'Орташа баға', width: 8, value: (f) => f.average_rating },
  { ru: 'Оценили, %', kk: 'Бағалағандар, %', width: 10, value: (f) => f.rated_share },
]
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
  ...ratingColumns<Figures>(),
]
/** a breakdown's key column, then the figures */
const figuresTable = <Row extends Figures>(sheet: Words, key: ExportColumn<Row>): ExportTable<Row> => ({ sheet, columns: [key, ...figureColumns as ExportColumn<Row>[]] })

type LineFigures = LineKpis['lines']['totals']
const lineColumns: ExportColumn<LineFigures>[] = [
  { ru: 'Звонков на линию', kk: 'Желіге қоңыраулар', width: 12, value: (f) => f.calls },
  { ru: 'Вне графика', kk: 'Кестеден тыс', width: 10, value: (f) => f.closed },
  { ru: 'Номер не обслуживается', kk: 'Нөмір қызмет көрсетілмейді', width: 12, value: (f) => f.refused },
  { ru: 'Положили трубку в меню', kk: 'Мәзірде тұтқаны қойды', width: 12, value: (f) => f.menu_hangup },
  { ru: 'Не выбрали в меню', kk: 'Мәзірде таңдамады', width: 12, value: (f) => f.menu_timeout },
  { ru: 'Неверная цифра в меню', kk: 'Мәзірде қате цифр', width: 12, value: (f) => f.menu_invalid },
  { ru: 'На русском', kk: 'Орыс тілінде', width: 10, value: (f) => f.language_ru },
  { ru: 'На казахском', kk: 'Қазақ тілінде', width: 10, value: (f) => f.language_kk },
  { ru: 'Направлено в очередь', kk: 'Кезекке жіберілді', width: 12, value: (f) => f.to_queue },
]
const lineTable = <Row extends LineFigures>(sheet: Words, key: ExportColumn<Row>): ExportTable<Row> => ({ sheet, columns: [key, ...lineColumns as ExportColumn<Row>[]] })

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
  line: (k) => file(k.lines.lines, lineTable({ ru: 'По линиям', kk: 'Желілер бойынша' }, { ru: 'Линия', kk: 'Желі', width: 14, value: (l) => l.line })),
  line_day: (k) => file(k.lines.days, lineTable({ ru: 'Линии по дням', kk: 'Желілер күндер бойынша' }, { ru: 'День', kk: 'Күні', width: 12, value: (d) => d.day })),
  line_interval: (k) => file(k.lines.intervals, lineTable({ ru: 'Линии по получасам', kk: 'Желілер жарты сағат бойынша' }, { ru: 'Интервал', kk: 'Аралық', width: 17, value: (i, at) => at(new Date(i.start)) })),
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
      ...ratingColumns<LineKpis['operators'][number]>(),
    ],
  }),
}
