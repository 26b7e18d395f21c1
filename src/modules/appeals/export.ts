// The filtered register as a file (issue 14, item 8): CSV or XLSX, written batch by batch as the
// database gives them, so that 100,000 rows never sit in memory at once.
import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import type { AppealStatus } from '../../db/schema/index.js'
import type { ExportRow } from './repo.js'

export type ExportFormat = 'csv' | 'xlsx'
type Language = 'ru' | 'kk'

const statusWords: Record<AppealStatus, Record<Language, string>> = {
  registered: { ru: 'Зарегистрировано', kk: 'Тіркелді' },
  assigned: { ru: 'Назначено исполнителю', kk: 'Орындаушыға берілді' },
  in_work: { ru: 'В работе', kk: 'Жұмыста' },
  answered: { ru: 'Дан ответ', kk: 'Жауап берілді' },
  closed: { ru: 'Закрыто', kk: 'Жабылды' },
  rejected: { ru: 'Отклонено', kk: 'Қабылданбады' },
}
const yesNo: Record<Language, [string, string]> = { ru: ['да', 'нет'], kk: ['иә', 'жоқ'] }

interface Column { ru: string, kk: string, width: number, value: (row: ExportRow, format: (d: Date | null) => string, lang: Language) => string | number }

const COLUMNS: Column[] = [
  { ru: 'Номер', kk: 'Нөмірі', width: 17, value: (r) => r.number },
  { ru: 'Дата поступления', kk: 'Түскен күні', width: 17, value: (r, at) => at(r.received_at) },
  { ru: 'Статус', kk: 'Мәртебесі', width: 20, value: (r, _at, l) => statusWords[r.status][l] },
  { ru: 'Заявитель', kk: 'Өтініш беруші', width: 28, value: (r) => r.citizen_name },
  { ru: 'Телефон', kk: 'Телефон', width: 14, value: (r) => r.citizen_phone ?? '' },
  { ru: 'Язык', kk: 'Тілі', width: 6, value: (r) => r.language },
  { ru: 'Источник', kk: 'Көзі', width: 16, value: (r) => r.source ?? '' },
  { ru: 'Вид обращения', kk: 'Өтініш түрі', width: 16, value: (r) => r.appeal_type ?? '' },
  { ru: 'Категория', kk: 'Санаты', width: 24, value: (r) => r.category ?? '' },
  { ru: 'Подкатегория', kk: 'Санатшасы', width: 24, value: (r) => r.subcategory ?? '' },
  { ru: 'Приоритет', kk: 'Басымдығы', width: 9, value: (r) => r.priority },
  { ru: 'Регион', kk: 'Өңір', width: 24, value: (r) => r.region ?? '' },
  { ru: 'Адрес', kk: 'Мекенжайы', width: 28, value: (r) => r.address ?? '' },
  { ru: 'Способ ответа', kk: 'Жауап беру тәсілі', width: 18, value: (r) => r.response_method ?? '' },
  { ru: 'Исполнитель', kk: 'Орындаушы', width: 28, value: (r) => r.executor ?? '' },
  { ru: 'Срок принятия в работу', kk: 'Жұмысқа алу мерзімі', width: 17, value: (r, at) => at(r.work_due_at) },
  { ru: 'Срок ответа', kk: 'Жауап беру мерзімі', width: 17, value: (r, at) => at(r.close_due_at) },
  { ru: 'Просрочено', kk: 'Мерзімі өтті', width: 10, value: (r, _at, l) => yesNo[l][r.work_overdue_at || r.close_overdue_at ? 0 : 1] },
  { ru: 'Дата ответа', kk: 'Жауап күні', width: 17, value: (r, at) => at(r.answered_at) },
  { ru: 'Дата закрытия', kk: 'Жабылған күні', width: 17, value: (r, at) => at(r.closed_at) },
  { ru: 'Повторное', kk: 'Қайталама', width: 10, value: (r, _at, l) => yesNo[l][r.is_repeat ? 0 : 1] },
  { ru: 'Текст обращения', kk: 'Өтініш мәтіні', width: 60, value: (r) => r.text },
]

/** `YYYY-MM-DD HH:MM` in the centre's zone: sorts as text, reads as the centre's clock */
function localTime (timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return (d: Date | null) => {
    if (!d) return ''
    const p = Object.fromEntries(parts.formatToParts(d).map((x) => [x.type, x.value]))
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`
  }
}

const csvCell = (v: string | number) => {
  const s = String(v)
  // a leading =, @, or + / - before anything but a number would be a formula to a spreadsheet: quoted with an apostrophe
  const formula = /^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]\d[\d ()-]*$/.test(s))
  const safe = formula && typeof v === 'string' ? `'${s}` : s
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export const exportFile = (format: ExportFormat) => ({
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
})[format]

/** the rows as a byte stream in the format; it reads the next batch only when the client took the last */
export function exportStream (batches: AsyncIterable<ExportRow[]>, format: ExportFormat, lang: Language, timeZone: string): Readable {
  const at = localTime(timeZone)
  const cells = (r: ExportRow) => COLUMNS.map((c) => c.value(r, at, lang))
  if (format === 'csv') {
    return Readable.from((async function * () {
      yield '\uFEFF' + COLUMNS.map((c) => csvCell(c[lang])).join(',') + '\r\n'
      for await (const batch of batches) yield batch.map((r) => cells(r).map(csvCell).join(',') + '\r\n').join('')
    })())
  }
  const out = new PassThrough()
  void (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
    const sheet = workbook.addWorksheet(lang === 'kk' ? 'Өтініштер' : 'Обращения', { views: [{ state: 'frozen', ySplit: 1 }] })
    sheet.columns = COLUMNS.map((c) => ({ header: c[lang], width: c.width }))
    sheet.getRow(1).font = { bold: true }
    sheet.getRow(1).commit()
    for await (const batch of batches) {
      if (out.destroyed) return // the client left: no more batches are read
      for (const r of batch) sheet.addRow(cells(r)).commit()
      // the zip writer runs ahead of a slow client otherwise
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')])
    }
    sheet.commit()
    await workbook.commit()
  })().catch((err: unknown) => out.destroy(err as Error))
  return out
}
