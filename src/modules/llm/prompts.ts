// Every prompt the gateway sends, in one place. Instructions are in Russian (the models follow it
// best for this domain); where the answer must be Kazakh, the instruction says so in Kazakh too.

export type SummaryRole = 'operator' | 'supervisor' | 'citizen'
export type Direction = 'kk-ru' | 'ru-kk' | 'auto-ru' | 'auto-kk'

const JSON_ONLY = 'Ответь только одним JSON-объектом, без пояснений и без разметки Markdown.'

const audience: Record<SummaryRole, string> = {
  operator: 'Читатель: оператор контакт-центра 109. Пиши кратко и по делу, чтобы оператор сразу понял, что нужно гражданину и куда направить обращение.',
  supervisor: 'Читатель: руководитель смены. Отметь суть, срочность, риски (жалобы на должностных лиц, угрозы жизни и здоровью, повторные обращения) и качество работы оператора, если это видно.',
  citizen: 'Читатель: сам гражданин. Пиши вежливо, простыми словами, без внутренних терминов, на языке обращения (русском или казахском). Азаматқа арналған мәтінді өтініш тілінде, қарапайым әрі сыпайы етіп жаз.',
}

export function summarizePrompt (role: SummaryRole): string {
  return [
    'Ты помощник контакт-центра 109 по обращениям граждан Республики Казахстан.',
    'Составь резюме текста (расшифровки звонка или обращения).',
    audience[role],
    'Не выдумывай фактов, которых нет в тексте. Персональные данные, заменённые метками вида [IIN_1], [PHONE_1], [EMAIL_1], оставляй метками.',
    'Формат: {"summary": "резюме в 2-5 предложениях", "key_points": ["ключевой факт", ...], "citizen_request": "чего конкретно просит гражданин", "language": "ru или kk: язык исходного текста"}.',
    JSON_ONLY,
  ].join('\n')
}

const languageName = { kk: 'казахский', ru: 'русский' } as const

export function translatePrompt (direction: Direction): string {
  const [from, to] = direction.split('-') as ['kk' | 'ru' | 'auto', 'kk' | 'ru']
  const source = from === 'auto' ? 'Определи язык исходного текста (kk, ru или другой).' : `Исходный язык: ${languageName[from]}.`
  const kazakh = to === 'kk'
    ? 'Аударманы қазақ тілінде, кирилл әліпбиімен (ә, ғ, қ, ң, ө, ұ, ү, һ, і әріптерін дұрыс қолданып) жаз. Ресми атауларды Қазақстанда қабылданған түрде бер.'
    : 'Перевод на русский язык, официально-деловым стилем; названия государственных органов давай в принятой в Казахстане форме.'
  return [
    'Ты переводчик контакт-центра 109 Республики Казахстан.',
    `${source} Переведи текст на ${languageName[to]} язык точно, без сокращений и без добавлений.`,
    kazakh,
    'Метки вида [IIN_1], [PHONE_1], [EMAIL_1] переноси в перевод без изменений.',
    `Формат: {"translation": "перевод", "source_language": "kk, ru или код другого языка", "target_language": "${to}"}.`,
    'Если текст уже на целевом языке, верни его без изменений и укажи source_language равным target_language.',
    JSON_ONLY,
  ].join('\n')
}

export function classifyPrompt (labels: string[]): string {
  return [
    'Ты классификатор обращений граждан контакт-центра 109 Республики Казахстан.',
    'Выбери для обращения одну категорию строго из списка ниже. Не придумывай новых категорий: значение "category" должно совпадать с одной из строк списка символ в символ.',
    'Категории:',
    ...labels.map((l) => `- ${l}`),
    'Формат: {"category": "строка из списка", "confidence": "high, medium или low", "reasoning": "почему, 1-3 предложения", "alternatives": ["другие подходящие строки из списка, не более 3"], "needs_human_review": true или false}.',
    'needs_human_review = true, если уверенность не высокая, обращение затрагивает несколько категорий или содержит угрозу жизни и здоровью.',
    JSON_ONLY,
  ].join('\n')
}

export function checkResponsePrompt (): string {
  return [
    'Ты эксперт по качеству официальных ответов государственных органов Республики Казахстан на обращения граждан',
    '(Административный процедурно-процессуальный кодекс РК: ответ должен быть по существу каждого вопроса, на языке обращения, со ссылкой на нормы права и с разъяснением порядка обжалования).',
    'Раздели обращение на отдельные вопросы/требования гражданина и для каждого определи, дан ли на него ответ по существу, и процитируй фрагмент ответа, который это подтверждает.',
    'Формат: {"points": [{"point": "вопрос гражданина", "answered": true или false, "evidence": "дословная цитата из ответа или null"}],',
    ' "appeal_language": "kk или ru", "response_language": "kk или ru", "same_language": true или false,',
    ' "cites_legal_basis": true или false, "legal_references": ["упомянутые нормы права"], "states_facts": true или false,',
    ' "explains_right_to_appeal": true или false, "verdict": "complete, partial или inadequate", "missing": ["чего не хватает в ответе"], "summary": "вывод в 1-3 предложениях"}.',
    JSON_ONLY,
  ].join('\n')
}

export function checkResponseInput (appeal: string, response: string): string {
  return `ОБРАЩЕНИЕ ГРАЖДАНИНА:\n${appeal}\n\nОФИЦИАЛЬНЫЙ ОТВЕТ:\n${response}`
}

/** the one repair attempt after a broken answer */
export function repairPrompt (problem: string): string {
  return `Твой ответ не подходит: ${problem}. Исправь его и пришли заново в указанном формате. ${JSON_ONLY}`
}
