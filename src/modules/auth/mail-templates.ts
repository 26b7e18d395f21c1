import type { MailMessage } from '../../integrations/mail/index.js'

// Mail goes out in Russian and Kazakh, the two languages of the centre's staff.

const formatExpiry = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`

export function invitationMail ({ to, fullName, link, expiresAt }: { to: string, fullName: string, link: string, expiresAt: Date }): MailMessage {
  return {
    to,
    subject: 'Приглашение в систему обращений / Өтініштер жүйесіне шақыру',
    text: [
      `Здравствуйте, ${fullName}!`,
      '',
      'Вас пригласили в систему обработки обращений граждан. Чтобы задать пароль и войти, откройте ссылку:',
      link,
      `Ссылка действует до ${formatExpiry(expiresAt)} и может быть использована один раз.`,
      '',
      '---',
      '',
      `Сәлеметсіз бе, ${fullName}!`,
      '',
      'Сізді азаматтардың өтініштерін өңдеу жүйесіне шақырды. Құпиясөзді орнатып, кіру үшін сілтемені ашыңыз:',
      link,
      `Сілтеме ${formatExpiry(expiresAt)} дейін жарамды және бір рет қолданылады.`,
    ].join('\n'),
  }
}

export function passwordResetMail ({ to, fullName, link, expiresAt }: { to: string, fullName: string, link: string, expiresAt: Date }): MailMessage {
  return {
    to,
    subject: 'Восстановление пароля / Құпиясөзді қалпына келтіру',
    text: [
      `Здравствуйте, ${fullName}!`,
      '',
      'Кто-то запросил смену пароля для вашей учётной записи. Чтобы задать новый пароль, откройте ссылку:',
      link,
      `Ссылка действует до ${formatExpiry(expiresAt)}. Если вы не запрашивали смену пароля, просто проигнорируйте это письмо.`,
      '',
      '---',
      '',
      `Сәлеметсіз бе, ${fullName}!`,
      '',
      'Сіздің есептік жазбаңыз үшін құпиясөзді ауыстыру сұралды. Жаңа құпиясөз орнату үшін сілтемені ашыңыз:',
      link,
      `Сілтеме ${formatExpiry(expiresAt)} дейін жарамды. Егер сіз сұрамаған болсаңыз, бұл хатты елемеңіз.`,
    ].join('\n'),
  }
}
