// Russian texts of the console. Kazakh (kk.ts) has the same keys: a test checks the two agree.
export const ru = {
  app: { title: 'Консоль 109', centre: 'Единый контакт-центр 109' },
  language: { label: 'Язык', ru: 'Русский', kk: 'Қазақша' },
  nav: { profile: 'Профиль', signOut: 'Выйти', changePassword: 'Сменить пароль', desk: 'Рабочее место', appeals: 'Обращения', board: 'Мониторинг', admin: 'Администрирование' },
  common: {
    save: 'Сохранить', loading: 'Загрузка…', retry: 'Повторить', back: 'Назад', required: 'Заполните поле',
    networkError: 'Сервис недоступен. Проверьте подключение и повторите.', unexpected: 'Не удалось выполнить запрос ({{status}}).',
    saved: 'Сохранено', cancel: 'Отмена', yes: 'Да', no: 'Нет',
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
  desk: {
    title: 'Рабочее место оператора', waiting: 'Ожидание звонка. Карточка звонящего появится, как только звонок будет принят.',
    presence: { connecting: 'Подключение…', closed: 'Нет связи с сервисом, переподключение…', online: 'В сети', onCall: 'Разговор' },
    transcript: 'Расшифровка', callEnded: 'Звонок завершён', live: 'Идёт разговор', noTranscript: 'Расшифровка появится по ходу разговора',
    channels: { caller: 'Заявитель', operator: 'Оператор' } as Record<string, string>,
    caller: 'Звонящий', phone: 'Телефон', person: 'Гражданин', iin: 'ИИН', unknownCaller: 'Не найден в справочнике', previousCalls: 'Звонков ранее',
    repeat: 'Повторное обращение: за 30 дней обращений — {{count}}', previousFailed: 'Не удалось загрузить прежние обращения', previousAppeals: 'Прежние обращения',
    assistant: {
      title: 'Помощник (LLM)', summary: 'Резюме', toRussian: 'Перевод на русский', toKazakh: 'Перевод на казахский', classify: 'Подобрать классификацию',
      needsTranscript: 'Кнопки станут доступны, когда появится расшифровка.', request: 'Просьба заявителя', translation: 'Перевод', classification: 'Классификация',
      confidence: { high: 'уверенно', medium: 'вероятно', low: 'неуверенно' } as Record<string, string>, review: 'Нужна проверка оператором',
      failed: 'Модель не дала ответа: {{error}}', unavailable: 'LLM не настроен: обратитесь к администратору.',
    },
    form: {
      title: 'Регистрация обращения', registered: 'Обращение {{number}} зарегистрировано.', open: 'Открыть',
      person: 'Гражданин из справочника', personHint: 'Поиск по ИИН, ФИО или телефону. Если не найден — заполните поля ниже.',
      personSearch: 'ИИН, ФИО или телефон', typeToSearch: 'Введите не менее 2 символов', noPerson: 'Не найдено',
      fullName: 'ФИО заявителя', iin: 'ИИН', iinHint: '12 цифр; с ИИН гражданин будет добавлен в справочник', phone: 'Телефон', email: 'Электронная почта',
      badEmail: 'Неверный адрес почты', language: 'Язык обращения', text: 'Суть обращения', classification: 'Классификация',
      classificationSearch: 'Найдите подкатегорию по названию', region: 'Регион', address: 'Адрес', source: 'Источник', responseMethod: 'Способ ответа',
      executor: 'Исполнитель', executorHint: 'Если указан, обращение сразу назначается исполнителю', submit: 'Зарегистрировать',
    },
  },
  appeals: {
    title: 'Обращения', overdue: 'Просрочено', repeat: 'Повторное',
    statuses: { registered: 'Зарегистрировано', assigned: 'Назначено', in_work: 'В работе', answered: 'Дан ответ', closed: 'Закрыто', rejected: 'Отклонено' } as Record<string, string>,
    number: 'Номер', received: 'Поступило', citizen: 'Заявитель', classification: 'Классификация', region: 'Регион', executor: 'Исполнитель',
    status: 'Статус', due: 'Срок', search: 'Поиск', searchHint: 'Номер, текст, заявитель', iin12: 'ИИН — 12 цифр', onlyOverdue: 'Только просроченные',
    period: 'Период поступления', apply: 'Найти', reset: 'Сбросить', exported: 'Выгружено строк: {{rows}}',
    exportTruncated: 'Выгружено строк: {{rows}} (больше не помещается — уточните фильтр)', exportFailed: 'Не удалось выгрузить', empty: 'Обращений не найдено',
    previous: 'Назад', first: 'В начало', next: 'Далее',
  },
  appeal: {
    title: 'Обращение {{number}}', notFound: 'Обращение не найдено или недоступно вам.', toList: 'К списку обращений',
    changedElsewhere: 'Обращение изменено другим пользователем: показано актуальное состояние.', text: 'Текст обращения', answer: 'Ответ от {{date}}',
    checkPending: 'Ответ проверяется моделью…', priority: 'Приоритет', workDue: 'Срок взятия в работу', closeDue: 'Срок ответа', extended: 'продлён: {{reason}}',
    history: 'История',
    events: { register: 'Зарегистрировано', assign: 'Назначено исполнителю', take: 'Взято в работу', redirect: 'Перенаправлено', extend: 'Срок продлён', answer: 'Дан ответ', return: 'Возвращено на доработку', close: 'Закрыто', reject: 'Отклонено', overdue: 'Просрочено' } as Record<string, string>,
    actions: { assign: 'Назначить', take: 'Взять в работу', redirect: 'Перенаправить', extend: 'Продлить срок', answer: 'Ответить', return: 'Вернуть на доработку', close: 'Закрыть', reject: 'Отклонить' } as Record<string, string>,
    done: { assign: 'Назначено', take: 'Взято в работу', redirect: 'Перенаправлено', extend: 'Срок продлён', answer: 'Ответ отправлен', return: 'Возвращено на доработку', close: 'Обращение закрыто', reject: 'Обращение отклонено' } as Record<string, string>,
    confirm: { take: 'Взять обращение {{number}} в работу?', close: 'Закрыть обращение {{number}}?' } as Record<string, string>,
    reason: 'Причина', until: 'Новый срок ответа', rejectKind: 'Основание',
    rejectKinds: { not_an_appeal: 'Не является обращением', duplicate: 'Дубликат', out_of_competence: 'Вне компетенции' } as Record<string, string>,
    answerText: 'Текст ответа', check: 'Проверить ответ (LLM)', checkTitle: 'Проверка ответа',
    checkStale: 'Текст изменён после проверки: проверьте снова.', checkHint: 'Модель сверит ответ с обращением: на все ли вопросы дан ответ, есть ли ссылки на закон и разъяснение права на обжалование. Ответить можно и без проверки.',
  },
  check: {
    verdicts: { complete: 'Ответ полный', partial: 'Ответ неполный', inadequate: 'Ответ по существу не дан' } as Record<string, string>,
    legalBasis: 'Есть ссылки на закон', rightToAppeal: 'Разъяснено право на обжалование', otherLanguage: 'Язык ответа не совпадает с языком обращения',
    answered: 'Отвечено', notAnswered: 'Без ответа', missing: 'Чего не хватает',
  },
  admin: {
    pages: {
      employees: 'Сотрудники', organizations: 'Организации', terminals: 'SIP-терминалы', pbx: 'АТС', classifiers: 'Классификаторы', references: 'Справочники',
      persons: 'Граждане', regions: 'Регионы', calendar: 'Рабочий календарь', notifications: 'Уведомления', tenants: 'Арендаторы платформы',
    } as Record<string, string>,
  },
  /** the service's messages (English, as FastAPI's) in the console's language; others are shown as they come */
  apiMessages: {
    'Value is not a valid Kazakhstan phone number': 'Неверный номер телефона Казахстана',
    'Current password is incorrect': 'Текущий пароль введён неверно',
    'Password should have at least 10 characters': 'Пароль не короче 10 символов',
    'Password must not be the e-mail address': 'Пароль не должен совпадать с почтой',
    'New password must differ from the current one': 'Новый пароль должен отличаться от текущего',
    'IIN must be 12 digits': 'ИИН — 12 цифр',
    'IIN does not encode a real birth date': 'ИИН не содержит действительной даты рождения',
    'IIN encodes a birth date in the future': 'Дата рождения в ИИН — в будущем',
    'IIN check digit is wrong': 'Неверная контрольная цифра ИИН',
  } as Record<string, string>,
  roles: { admin: 'Администратор', manager: 'Руководитель', operator: 'Оператор' } as Record<string, string>,
}

export type Texts = typeof ru
