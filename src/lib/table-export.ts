// A table as a file to download: CSV or XLSX, written batch by batch as the database gives them, so
// that 100,000 rows never sit in memory at once. The appeals register and the line's reports use it.
import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'

export type ExportFormat = 'csv' | 'xlsx'
export type ExportLanguage = 'ru' | 'kk'
/** an instant as the centre's clock reads it, `YYYY-MM-DD HH:MM`; '' for none */
export type LocalTime = (d: Date | null) => string

/** a column: its heading in each language, its width in XLSX, and its cell of a row */
export interface ExportColumn<Row> { ru: string, kk: string, width: number, value: (row: Row, at: LocalTime, lang: ExportLanguage) => string | number | null }

/** what makes a table a file: its columns and its sheet's name */
export interface ExportTable<Row> { columns: ExportColumn<Row>[], sheet: Record<ExportLanguage, string> }

/** `YYYY-MM-DD HH:MM` in the centre's zone: sorts as text, reads as the centre's clock */
export function localTime (timeZone: string): LocalTime {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return (d) => {
    if (!d) return ''
    const p = Object.fromEntries(parts.formatToParts(d).map((x) => [x.type, x.value]))
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`
  }
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v)
  // a leading =, @, or + / - before anything but a number would be a formula to a spreadsheet: quoted with an apostrophe
  const formula = /^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]\d[\d ()-]*$/.test(s))
  const safe = formula && typeof v === 'string' ? `'${s}` : s
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

const FILES = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
} as const

/** the rows as a byte stream in the format; it reads the next batch only when the client took the last */
export function exportStream<Row> (batches: AsyncIterable<Row[]>, table: ExportTable<Row>, format: ExportFormat, lang: ExportLanguage, timeZone: string): Readable {
  const at = localTime(timeZone)
  const cells = (r: Row) => table.columns.map((c) => c.value(r, at, lang))
  if (format === 'csv') {
    return Readable.from((async function * () {
      yield '\uFEFF' + table.columns.map((c) => csvCell(c[lang])).join(',') + '\r\n'
      for await (const batch of batches) yield batch.map((r) => cells(r).map(csvCell).join(',') + '\r\n').join('')
    })())
  }
  const out = new PassThrough()
  void (async () => {
    // loaded on the first spreadsheet asked for: with its zip libraries it is the heaviest load of the service's start
    const { default: ExcelJS } = await import('exceljs')
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
    const sheet = workbook.addWorksheet(table.sheet[lang], { views: [{ state: 'frozen', ySplit: 1 }] })
    sheet.columns = table.columns.map((c) => ({ header: c[lang], width: c.width }))
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

/**
 * A query's rows in batches, in its order, at most `max` in all: each batch read after the last row
 * of the one before (keyset), when the export asks for it.
 */
export async function * keysetBatches<Row, Key> (read: (after: Key | undefined, limit: number) => Promise<Row[]>, keyOf: (row: Row) => Key, max: number, batch: number): AsyncIterable<Row[]> {
  let after: Key | undefined
  for (let sent = 0; sent < max;) {
    const rows = await read(after, Math.min(batch, max - sent))
    if (rows.length === 0) return
    yield rows
    sent += rows.length
    after = keyOf(rows[rows.length - 1]!)
  }
}

/** rows already in memory (a report's few hundred), as the batches an export reads */
export async function * inOneBatch<Row> (rows: Row[]): AsyncIterable<Row[]> { yield rows }

/**
 * The file as the answer: its type, `<name>.<extension>` as an attachment, how many rows it holds
 * (`X-Export-Rows`) and whether the filter matched more than it holds (`X-Export-Truncated`).
 */
export function sendExport (reply: FastifyReply, file: { name: string, format: ExportFormat, rows: number, truncated: boolean, body: Readable }) {
  const { contentType, extension } = FILES[file.format]
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${file.name}.${extension}"`)
    .header('x-export-rows', String(file.rows))
    .header('x-export-truncated', String(file.truncated))
    .send(file.body)
}
