// What the register tells whom (DESIGN 7.4): the citizen of an answer or a redirect, through the
// response method's channel; the executor's managers of an assignment or a breach, by e-mail. Every
// notice is bilingual for managers and in the appeal's language for the citizen.
import type { NotificationInsert } from '../notifications/queries.js'
import type { AppealRow, Deadline } from './repo.js'

type Language = 'ru' | 'kk'
const SMS_MAX = 480
const SIGNATURE = { ru: 'Единый контакт-центр 109', kk: '109 бірыңғай байланыс орталығы' }

// building a formatter costs far more than using one: one per language and zone
const formatters = new Map<string, Intl.DateTimeFormat>()

/** a moment as the centre's people read it: day, month in words, year, hour and minute in its zone */
function when (at: Date, language: Language, timeZone: string): string {
  const key = `${language} ${timeZone}`
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'kk' ? 'kk-KZ' : 'ru-RU', { timeZone, day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' })
    formatters.set(key, format)
  }
  return format.format(at)
}

const clip = (text: string, max: number) => text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`

export type CitizenChannel = 'email' | 'sms' | null

interface CitizenContext {
  appeal: AppealRow
  channel: CitizenChannel
  /** the history row the notice tells about: one notice per event */
  eventId: number
  timeZone: string
  /** redirect: the new executor's name */
  organizationName?: string
}

function citizenTexts ({ appeal, timeZone, organizationName }: CitizenContext, kind: 'answer' | 'redirect') {
  const lang: Language = appeal.language === 'kk' ? 'kk' : 'ru'
  const received = when(appeal.received_at, lang, timeZone)
  const due = when(appeal.close_due_at, lang, timeZone)
  const n = appeal.number
  if (kind === 'answer') {
    const answer = appeal.answer_text ?? ''
    return lang === 'kk'
      ? {
          subject: `${n} өтінішіне жауап`,
          body: `Құрметті ${appeal.citizen_name}!\n\nСіздің ${received} күнгі ${n} өтінішіңізге жауап берілді:\n\n${answer}\n\nЖауаппен келіспесеңіз, оған жоғары тұрған органға немесе сотқа шағым жасауға құқылысыз.\n\n${SIGNATURE.kk}\n`,
          sms: clip(`${n} өтінішіңізге жауап: ${answer}`, SMS_MAX),
        }
      : {
          subject: `Ответ на обращение ${n}`,
          body: `Уважаемый(ая) ${appeal.citizen_name}!\n\nНа ваше обращение ${n} от ${received} дан ответ:\n\n${answer}\n\nЕсли вы не согласны с ответом, вы вправе обжаловать его в вышестоящем органе или в суде.\n\n${SIGNATURE.ru}\n`,
          sms: clip(`Ответ на обращение ${n}: ${answer}`, SMS_MAX),
        }
  }
  const to = organizationName ?? ''
  return lang === 'kk'
    ? {
        subject: `${n} өтініші басқа органға жіберілді`,
        body: `Құрметті ${appeal.citizen_name}!\n\n${received} күнгі ${n} өтінішіңіз қарау үшін жіберілді: ${to}. Жауап беру мерзімі: ${due}.\n\n${SIGNATURE.kk}\n`,
        sms: clip(`${n} өтінішіңіз жіберілді: ${to}. Жауап мерзімі: ${due}.`, SMS_MAX),
      }
    : {
        subject: `Обращение ${n} перенаправлено`,
        body: `Уважаемый(ая) ${appeal.citizen_name}!\n\nВаше обращение ${n} от ${received} передано на рассмотрение: ${to}. Срок ответа: ${due}.\n\n${SIGNATURE.ru}\n`,
        sms: clip(`Обращение ${n} передано: ${to}. Срок ответа: ${due}.`, SMS_MAX),
      }
}

/** the citizen's notice of an answer or a redirect; none when the method is not ours to deliver or the contact is missing */
export function citizenNotice (kind: 'answer' | 'redirect', context: CitizenContext): NotificationInsert | undefined {
  const { appeal, channel, eventId } = context
  const recipient = channel === 'email' ? appeal.citizen_email : channel === 'sms' ? appeal.citizen_phone : null
  if (!channel || !recipient) return undefined
  const texts = citizenTexts(context, kind)
  return {
    idempotency_key: `appeal-${appeal.id}-event-${eventId}-citizen`,
    channel,
    kind,
    recipient,
    subject: channel === 'email' ? texts.subject : null,
    body: channel === 'email' ? texts.body : texts.sms,
    appeal_id: appeal.id,
  }
}

const deadlineWords: Record<Deadline, Record<Language, string>> = {
  work: { ru: 'срок принятия в работу', kk: 'жұмысқа алу мерзімі' },
  close: { ru: 'срок ответа', kk: 'жауап беру мерзімі' },
}

type ManagerNotice =
  | { kind: 'assign', eventId: number | 'registration' }
  | { kind: 'overdue', deadline: Deadline, dueAt: Date }

/** a text of literal pieces and values; `V`: a value only the registration's statement gives (its SQL) */
type Text<V> = Array<string | V>
const text = <V>(strings: TemplateStringsArray, ...values: Array<string | number | V>): Text<V> =>
  strings.flatMap((piece, i) => i < values.length ? [piece, typeof values[i] === 'number' ? String(values[i]) : values[i] as string | V] : [piece])

interface NoticeAppeal<V> { id: number | V, number: string | V, work_due_at: Date, close_due_at: Date }

/** the mail to an executor's managers, in Russian and Kazakh, over the appeal's id and number as they are given */
function managerMessage<V> (appeal: NoticeAppeal<V>, notice: ManagerNotice, timeZone: string) {
  const n = appeal.number
  const ru = (at: Date) => when(at, 'ru', timeZone)
  const kk = (at: Date) => when(at, 'kk', timeZone)
  return notice.kind === 'assign'
    ? {
        key: text<V>`appeal-${appeal.id}-event-${notice.eventId}`,
        subject: text<V>`Новое обращение ${n} / Жаңа өтініш ${n}`,
        body: [
          ...text<V>`Вашей организации поручено обращение ${n}. Принять в работу до ${ru(appeal.work_due_at)}, ответить до ${ru(appeal.close_due_at)}.\n\n`,
          ...text<V>`Ұйымыңызға ${n} өтініші тапсырылды. Жұмысқа алу мерзімі: ${kk(appeal.work_due_at)}, жауап беру мерзімі: ${kk(appeal.close_due_at)}.\n`,
        ],
      }
    : {
        key: text<V>`appeal-${appeal.id}-overdue-${notice.deadline}`,
        subject: text<V>`Просрочено обращение ${n} / ${n} өтініші мерзімі өтті`,
        body: text<V>`Обращение ${n}: истёк ${deadlineWords[notice.deadline].ru} (${ru(notice.dueAt)}).\n\n${n} өтініші: ${deadlineWords[notice.deadline].kk} өтті (${kk(notice.dueAt)}).\n`,
      }
}

const managerRows = <T>(kind: ManagerNotice['kind'], emails: string[], row: (email: string) => T) =>
  emails.map((email) => ({ channel: 'email' as const, kind, recipient: email, ...row(email) }))

/** a mail to each manager of the executor organization, in Russian and Kazakh */
export function managerNotices (appeal: NoticeAppeal<never> & { id: number }, notice: ManagerNotice, emails: string[], timeZone: string): NotificationInsert[] {
  const message = managerMessage(appeal, notice, timeZone)
  return managerRows(notice.kind, emails, (email) => ({
    idempotency_key: `${message.key.join('')}-${email.toLowerCase()}`.slice(0, 200),
    subject: message.subject.join(''),
    body: message.body.join(''),
    appeal_id: appeal.id,
  }))
}

/** the managers' mails of an appeal assigned as it is registered, over the id and number its statement gives */
export function registrationNotices<V> (appeal: NoticeAppeal<V> & { id: V, number: V }, emails: string[], timeZone: string) {
  const message = managerMessage(appeal, { kind: 'assign', eventId: 'registration' }, timeZone)
  return managerRows('assign', emails, (email) => ({
    idempotency_key: [...message.key, `-${email.toLowerCase()}`],
    subject: message.subject,
    body: message.body,
  }))
}
