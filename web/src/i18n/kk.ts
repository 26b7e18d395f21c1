import type { Texts } from './ru'

// Kazakh texts of the console: the same keys as ru.ts.
export const kk: Texts = {
  app: { title: '109 консолі', centre: '109 бірыңғай байланыс орталығы' },
  language: { label: 'Тіл', ru: 'Русский', kk: 'Қазақша' },
  nav: { profile: 'Профиль', signOut: 'Шығу', changePassword: 'Құпиясөзді ауыстыру', desk: 'Жұмыс орны', appeals: 'Өтініштер', board: 'Мониторинг', admin: 'Әкімшілік' },
  common: {
    save: 'Сақтау', loading: 'Жүктелуде…', retry: 'Қайталау', back: 'Артқа', required: 'Өрісті толтырыңыз',
    networkError: 'Қызмет қолжетімсіз. Байланысты тексеріп, қайталаңыз.', unexpected: 'Сұрау орындалмады ({{status}}).',
    saved: 'Сақталды', cancel: 'Болдырмау', yes: 'Иә', no: 'Жоқ',
  },
  signIn: {
    title: 'Кіру', email: 'Электрондық пошта', password: 'Құпиясөз', submit: 'Кіру', forgot: 'Құпиясөзді ұмыттыңыз ба?',
    invalid: 'Пошта немесе құпиясөз қате', throttled: 'Әрекет тым көп. {{minutes}} минуттан кейін қайталаңыз.',
    expired: 'Сеанс аяқталды. Қайта кіріңіз.',
  },
  password: {
    rules: 'Кемінде 10 таңба; поштамен және бұрынғы құпиясөзбен сәйкес келмейді.',
    newPassword: 'Жаңа құпиясөз', repeat: 'Құпиясөзді қайталаңыз', mismatch: 'Құпиясөздер сәйкес келмейді', tooShort: 'Кемінде 10 таңба',
    current: 'Ағымдағы құпиясөз',
  },
  invite: {
    title: 'Шақыру', intro: '{{name}}, сіз байланыс орталығының консоліне шақырылдыңыз. Кіру үшін құпиясөз орнатыңыз ({{email}}).',
    validUntil: 'Шақыру {{date}} дейін жарамды.', submit: 'Құпиясөз орнатып, кіру',
    invalid: 'Шақыру сілтемесі жарамсыз.', expired: 'Шақырудың мерзімі өтті. Басшыдан жаңасын жіберуді сұраңыз.',
    used: 'Шақыру бұрын пайдаланылған. Өз құпиясөзіңізбен кіріңіз.', toSignIn: 'Кіруге өту',
  },
  forgot: {
    title: 'Құпиясөзді қалпына келтіру', intro: 'Есептік жазба тіркелген поштаны көрсетіңіз: құпиясөзді ауыстыру сілтемесін жібереміз.',
    submit: 'Сілтемені жіберу', sent: 'Мекенжай тіркелген болса, сілтеме соған жіберілді. Ол бір сағат жарамды.',
  },
  reset: {
    title: 'Жаңа құпиясөз', submit: 'Құпиясөзді ауыстыру', done: 'Құпиясөз ауыстырылды. Жаңа құпиясөзбен кіріңіз.', invalid: 'Сілтеме жарамсыз немесе ескірген. Жаңасын сұраңыз.',
  },
  changePassword: {
    title: 'Құпиясөзді ауыстыру', forced: 'Жұмысты бастамас бұрын әкімші берген құпиясөзді ауыстырыңыз.', submit: 'Құпиясөзді ауыстыру', done: 'Құпиясөз ауыстырылды',
  },
  profile: {
    title: 'Профиль', email: 'Пошта', fullName: 'Аты-жөні', organization: 'Ұйым', role: 'Рөлі', position: 'Лауазымы', phone: 'Телефон',
    modules: 'Модульдер', noOrganization: '—',
  },
  desk: {
    title: 'Оператордың жұмыс орны', waiting: 'Қоңырау күтілуде. Қоңырау қабылданған сәтте қоңырау шалушының карточкасы шығады.',
    presence: { connecting: 'Қосылуда…', closed: 'Қызметпен байланыс жоқ, қайта қосылуда…', online: 'Желіде', onCall: 'Сөйлесуде' },
    transcript: 'Транскрипция', callEnded: 'Қоңырау аяқталды', live: 'Сөйлесу жүріп жатыр', noTranscript: 'Транскрипция сөйлесу барысында шығады',
    channels: { caller: 'Өтініш беруші', operator: 'Оператор' },
    caller: 'Қоңырау шалушы', phone: 'Телефон', person: 'Азамат', iin: 'ЖСН', unknownCaller: 'Анықтамалықта табылмады', previousCalls: 'Бұрынғы қоңыраулар',
    repeat: 'Қайталама өтініш: 30 күнде өтініштер саны — {{count}}', previousFailed: 'Бұрынғы өтініштерді жүктеу мүмкін болмады', previousAppeals: 'Бұрынғы өтініштер',
    assistant: {
      title: 'Көмекші (LLM)', summary: 'Түйіндеме', toRussian: 'Орыс тіліне аудару', toKazakh: 'Қазақ тіліне аудару', classify: 'Жіктемені ұсыну',
      needsTranscript: 'Транскрипция пайда болғанда батырмалар қолжетімді болады.', request: 'Өтініш берушінің өтінішi', translation: 'Аударма', classification: 'Жіктеме',
      confidence: { high: 'сенімді', medium: 'ықтимал', low: 'сенімсіз' }, review: 'Оператордың тексеруі қажет',
      failed: 'Модель жауап бермеді: {{error}}', unavailable: 'LLM бапталмаған: әкімшіге хабарласыңыз.',
    },
    form: {
      title: 'Өтінішті тіркеу', registered: '{{number}} өтініші тіркелді.', open: 'Ашу',
      person: 'Анықтамалықтағы азамат', personHint: 'ЖСН, аты-жөні немесе телефон бойынша іздеу. Табылмаса, төмендегі өрістерді толтырыңыз.',
      personSearch: 'ЖСН, аты-жөні немесе телефон', typeToSearch: 'Кемінде 2 таңба енгізіңіз', noPerson: 'Табылмады',
      fullName: 'Өтініш берушінің аты-жөні', iin: 'ЖСН', iinHint: '12 цифр; ЖСН болса, азамат анықтамалыққа қосылады', phone: 'Телефон', email: 'Электрондық пошта',
      badEmail: 'Пошта мекенжайы қате', language: 'Өтініш тілі', text: 'Өтініштің мәні', classification: 'Жіктеме',
      classificationSearch: 'Санатшаны атауы бойынша табыңыз', region: 'Өңір', address: 'Мекенжай', source: 'Дереккөз', responseMethod: 'Жауап беру тәсілі',
      executor: 'Орындаушы', executorHint: 'Көрсетілсе, өтініш бірден орындаушыға тағайындалады', submit: 'Тіркеу',
    },
  },
  appeals: {
    title: 'Өтініштер', overdue: 'Мерзімі өткен', repeat: 'Қайталама',
    statuses: { registered: 'Тіркелді', assigned: 'Тағайындалды', in_work: 'Жұмыста', answered: 'Жауап берілді', closed: 'Жабылды', rejected: 'Қабылданбады' },
    number: 'Нөмірі', received: 'Түскен уақыты', citizen: 'Өтініш беруші', classification: 'Жіктеме', region: 'Өңір', executor: 'Орындаушы',
    status: 'Мәртебесі', due: 'Мерзімі', search: 'Іздеу', searchHint: 'Нөмір, мәтін, өтініш беруші', iin12: 'ЖСН — 12 цифр', onlyOverdue: 'Тек мерзімі өткендер',
    period: 'Түскен кезеңі', apply: 'Табу', reset: 'Тазарту', exported: 'Жүктелген жолдар: {{rows}}',
    exportTruncated: 'Жүктелген жолдар: {{rows}} (қалғаны сыймайды — сүзгіні нақтылаңыз)', exportFailed: 'Жүктеп алу мүмкін болмады', empty: 'Өтініштер табылмады',
    previous: 'Артқа', first: 'Басына', next: 'Әрі қарай',
  },
  appeal: {
    title: '{{number}} өтініші', notFound: 'Өтініш табылмады немесе сізге қолжетімсіз.', toList: 'Өтініштер тізіміне',
    changedElsewhere: 'Өтінішті басқа пайдаланушы өзгертті: өзекті күйі көрсетілген.', text: 'Өтініш мәтіні', answer: '{{date}} берілген жауап',
    checkPending: 'Жауапты модель тексеруде…', priority: 'Басымдық', workDue: 'Жұмысқа алу мерзімі', closeDue: 'Жауап беру мерзімі', extended: 'ұзартылды: {{reason}}',
    history: 'Тарих',
    events: { register: 'Тіркелді', assign: 'Орындаушыға тағайындалды', take: 'Жұмысқа алынды', redirect: 'Қайта жіберілді', extend: 'Мерзімі ұзартылды', answer: 'Жауап берілді', return: 'Пысықтауға қайтарылды', close: 'Жабылды', reject: 'Қабылданбады', overdue: 'Мерзімі өтті' },
    actions: { assign: 'Тағайындау', take: 'Жұмысқа алу', redirect: 'Қайта жіберу', extend: 'Мерзімді ұзарту', answer: 'Жауап беру', return: 'Пысықтауға қайтару', close: 'Жабу', reject: 'Қабылдамау' },
    done: { assign: 'Тағайындалды', take: 'Жұмысқа алынды', redirect: 'Қайта жіберілді', extend: 'Мерзімі ұзартылды', answer: 'Жауап жіберілді', return: 'Пысықтауға қайтарылды', close: 'Өтініш жабылды', reject: 'Өтініш қабылданбады' },
    confirm: { take: '{{number}} өтінішін жұмысқа аласыз ба?', close: '{{number}} өтінішін жабасыз ба?' },
    reason: 'Себебі', until: 'Жауаптың жаңа мерзімі', rejectKind: 'Негіздеме',
    rejectKinds: { not_an_appeal: 'Өтініш емес', duplicate: 'Қайталанған', out_of_competence: 'Құзыретке жатпайды' },
    answerText: 'Жауап мәтіні', check: 'Жауапты тексеру (LLM)', checkTitle: 'Жауапты тексеру',
    checkStale: 'Тексеруден кейін мәтін өзгерді: қайта тексеріңіз.', checkHint: 'Модель жауапты өтінішпен салыстырады: барлық сұраққа жауап берілді ме, заңға сілтеме және шағымдану құқығы түсіндірілген бе. Тексерусіз де жауап беруге болады.',
  },
  check: {
    verdicts: { complete: 'Жауап толық', partial: 'Жауап толық емес', inadequate: 'Мәні бойынша жауап берілмеген' },
    legalBasis: 'Заңға сілтемелер бар', rightToAppeal: 'Шағымдану құқығы түсіндірілген', otherLanguage: 'Жауап тілі өтініш тілімен сәйкес емес',
    answered: 'Жауап берілді', notAnswered: 'Жауапсыз', missing: 'Не жетіспейді',
  },
  admin: {
    pages: {
      employees: 'Қызметкерлер', organizations: 'Ұйымдар', terminals: 'SIP-терминалдар', pbx: 'АТС', classifiers: 'Жіктеуіштер', references: 'Анықтамалықтар',
      persons: 'Азаматтар', regions: 'Өңірлер', calendar: 'Жұмыс күнтізбесі', notifications: 'Хабарламалар', tenants: 'Платформа жалгерлері',
    },
  },
  apiMessages: {
    'Value is not a valid Kazakhstan phone number': 'Қазақстан телефон нөмірі қате',
    'Current password is incorrect': 'Ағымдағы құпиясөз қате енгізілді',
    'Password should have at least 10 characters': 'Құпиясөз кемінде 10 таңба болуы керек',
    'Password must not be the e-mail address': 'Құпиясөз поштамен бірдей болмауы керек',
    'New password must differ from the current one': 'Жаңа құпиясөз ағымдағысынан өзгеше болуы керек',
    'IIN must be 12 digits': 'ЖСН — 12 цифр',
    'IIN does not encode a real birth date': 'ЖСН-да нақты туған күн жоқ',
    'IIN encodes a birth date in the future': 'ЖСН-дағы туған күн болашақта',
    'IIN check digit is wrong': 'ЖСН бақылау цифры қате',
  },
  roles: { admin: 'Әкімші', manager: 'Басшы', operator: 'Оператор' },
}
