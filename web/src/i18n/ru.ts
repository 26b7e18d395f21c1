// Russian texts of the console. Kazakh (kk.ts) has the same keys: a test checks the two agree.
export const ru = {
  app: { title: 'Консоль 109', centre: 'Единый контакт-центр 109' },
  language: { label: 'Язык', ru: 'Русский', kk: 'Қазақша' },
  nav: { profile: 'Профиль', signOut: 'Выйти', changePassword: 'Сменить пароль' },
  common: {
    save: 'Сохранить', loading: 'Загрузка…', retry: 'Повторить', back: 'Назад', required: 'Заполните поле',
    networkError: 'Сервис недоступен. Проверьте подключение и повторите.', unexpected: 'Не удалось выполнить запрос ({{status}}).',
    saved: 'Сохранено',
  },
  signIn: {
    title: 'Вход', email: 'Электронная почта', password: 'Пароль', submit: 'Войти', forgot: 'Забыли пароль?',
    invalid: 'Неверная почта или пароль', throttled: 'Слишком много попыток. Повторите через {{minutes}} мин.',
    expired: 'Сеанс завершён. Войдите снова.',
  },
  password: {
    rules: 'Не короче 10 символов; не совпадает с почтой и прежним паролем.',
    newPassword: 'Новый пароль', repeat: 'Повторите пароль', mismatch: 'Пароли не совпадают', tooShort: 'Не короче 10 символов',
    current: 'Текущий пароль',
  },
  invite: {
    title: 'Приглашение', intro: '{{name}}, вас пригласили в консоль контакт-центра. Задайте пароль для входа ({{email}}).',
    validUntil: 'Приглашение действует до {{date}}.', submit: 'Задать пароль и войти',
    invalid: 'Ссылка приглашения недействительна.', expired: 'Срок приглашения истёк. Попросите руководителя отправить новое.',
    used: 'Приглашение уже использовано. Войдите со своим паролем.', toSignIn: 'Перейти ко входу',
  },
  forgot: {
    title: 'Восстановление пароля', intro: 'Укажите почту, на которую зарегистрирована учётная запись: мы отправим ссылку для смены пароля.',
    submit: 'Отправить ссылку', sent: 'Если адрес зарегистрирован, ссылка отправлена на него. Она действует один час.',
  },
  reset: {
    title: 'Новый пароль', submit: 'Сменить пароль', done: 'Пароль изменён. Войдите с новым паролем.', invalid: 'Ссылка недействительна или устарела. Запросите новую.',
  },
  changePassword: {
    title: 'Смена пароля', forced: 'Перед началом работы смените пароль, выданный администратором.', submit: 'Сменить пароль', done: 'Пароль изменён',
  },
  profile: {
    title: 'Профиль', email: 'Почта', fullName: 'ФИО', organization: 'Организация', role: 'Роль', position: 'Должность', phone: 'Телефон',
    modules: 'Модули', noOrganization: '—',
  },
  /** the service's messages (English, as FastAPI's) in the console's language; others are shown as they come */
  apiMessages: {
    'Value is not a valid Kazakhstan phone number': 'Неверный номер телефона Казахстана',
    'Current password is incorrect': 'Текущий пароль введён неверно',
    'Password should have at least 10 characters': 'Пароль не короче 10 символов',
    'Password must not be the e-mail address': 'Пароль не должен совпадать с почтой',
    'New password must differ from the current one': 'Новый пароль должен отличаться от текущего',
  } as Record<string, string>,
  roles: { admin: 'Администратор', manager: 'Руководитель', operator: 'Оператор' } as Record<string, string>,
}

export type Texts = typeof ru
