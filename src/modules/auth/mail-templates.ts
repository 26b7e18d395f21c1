import type { MailMessage } from '../../integrations/mail/index.js'

// Mail goes out in Russian and Kazakh, the two languages of the centre's staff.

const formatExpiry = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`

interface LinkMail { to: string, fullName: string, link: string, expiresAt: Date }
interface Wording { subject: string, ru: { intro: string, validity: string }, kk: { intro: string, validity: string } }

/** One letter, Russian first and Kazakh below, around a one-time link. */
function bilingualMail ({ to, fullName, link, expiresAt }: LinkMail, w: Wording): MailMessage {
  const expiry = formatExpiry(expiresAt)
  return {
    to,
    subject: w.subject,
    text: [
      `Здравствуйте, ${fullName}!`, '', w.ru.intro, link, w.ru.validity.replace('{expiry}', expiry),
      '', '---', '',
      `Сәлеметсіз бе, ${fullName}!`, '', w.kk.intro, link, w.kk.validity.replace('{expiry}', expiry),
    ].join('\n'),
  }
}

export const invitationMail = (mail: LinkMail) => bilingualMail(mail, {
  subject: 'Приглашение в систему обращений / Өтініштер жүйесіне шақыру',
  ru: {
    intro: 'Вас пригласили в систему обработки обращений граждан. Чтобы задать пароль и войти, откройте ссылку:',
    validity: 'Ссылка действует до {expiry} и может быть использована один раз.',
  },
  kk: {
    intro: 'Сізді азаматтардың өтініштерін өңдеу жүйесіне шақырды. Құпиясөзді орнатып, кіру үшін сілтемені ашыңыз:',
    validity: 'Сілтеме {expiry} дейін жарамды және бір рет қолданылады.',
  },
})

export const passwordResetMail = (mail: LinkMail) => bilingualMail(mail, {
  subject: 'Восстановление пароля / Құпиясөзді қалпына келтіру',
  ru: {
    intro: 'Кто-то запросил смену пароля для вашей учётной записи. Чтобы задать новый пароль, откройте ссылку:',
    validity: 'Ссылка действует до {expiry}. Если вы не запрашивали смену пароля, просто проигнорируйте это письмо.',
  },
  kk: {
    intro: 'Сіздің есептік жазбаңыз үшін құпиясөзді ауыстыру сұралды. Жаңа құпиясөз орнату үшін сілтемені ашыңыз:',
    validity: 'Сілтеме {expiry} дейін жарамды. Егер сіз сұрамаған болсаңыз, бұл хатты елемеңіз.',
  },
})
