import type { Texts } from './ru'

// Kazakh texts of the console: the same keys as ru.ts.
export const kk: Texts = {
  app: { title: '109 консолі', centre: '109 бірыңғай байланыс орталығы' },
  language: { label: 'Тіл', ru: 'Русский', kk: 'Қазақша' },
  nav: { profile: 'Профиль', signOut: 'Шығу', changePassword: 'Құпиясөзді ауыстыру' },
  common: {
    save: 'Сақтау', loading: 'Жүктелуде…', retry: 'Қайталау', back: 'Артқа', required: 'Өрісті толтырыңыз',
    networkError: 'Қызмет қолжетімсіз. Байланысты тексеріп, қайталаңыз.', unexpected: 'Сұрау орындалмады ({{status}}).',
    saved: 'Сақталды',
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
  apiMessages: {
    'Value is not a valid Kazakhstan phone number': 'Қазақстан телефон нөмірі қате',
    'Current password is incorrect': 'Ағымдағы құпиясөз қате енгізілді',
    'Password should have at least 10 characters': 'Құпиясөз кемінде 10 таңба болуы керек',
    'Password must not be the e-mail address': 'Құпиясөз поштамен бірдей болмауы керек',
    'New password must differ from the current one': 'Жаңа құпиясөз ағымдағысынан өзгеше болуы керек',
  },
  roles: { admin: 'Әкімші', manager: 'Басшы', operator: 'Оператор' },
}
