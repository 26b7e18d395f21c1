// The filtered register's columns as a file gives them (issue 14, item 8; lib/table-export writes it).
import type { AppealStatus } from '../../db/schema/index.js'
import type { ExportColumn, ExportLanguage as Language, ExportTable } from '../../lib/table-export.js'
import type { ExportRow } from './repo.js'

const statusWords: Record<AppealStatus, Record<Language, string>> = {
  registered: { ru: 'Зарегистрировано', kk: 'Тіркелді' },
  assigned: { ru: 'Назначено исполнителю', kk: 'Орындаушыға берілді' },
  in_work: { ru: 'В работе', kk: 'Жұмыста' },
  answered: { ru: 'Дан ответ', kk: 'Жауап берілді' },
  closed: { ru: 'Закрыто', kk: 'Жабылды' },
  rejected: { ru: 'Отклонено', kk: 'Қабылданбады' },
}
const yesNo: Record<Language, [string, string]> = { ru: ['да', 'нет'], kk: ['иә', 'жоқ'] }

const COLUMNS: ExportColumn<ExportRow>[] = [
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

/** the filtered register as a file (lib/table-export) */
export const appealsTable: ExportTable<ExportRow> = { columns: COLUMNS, sheet: { ru: 'Обращения', kk: 'Өтініштер' } }
