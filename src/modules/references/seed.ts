// This module's part of the reference seed (DESIGN 5.8): the sources of appeals and the methods of
// response, in Russian and Kazakh. Idempotent: a second run adds nothing.
import type { AppDb } from '../../db/client.js'
import { responseMethods, sources } from '../../db/schema/index.js'

const SOURCES: [string, string][] = [
  ['Телефон 109', '109 телефоны'],
  ['Telegram', 'Telegram'],
  ['Веб-сайт', 'Веб-сайт'],
  ['Мобильное приложение', 'Мобильді қосымша'],
  ['Электронная почта', 'Электрондық пошта'],
  ['Социальные сети', 'Әлеуметтік желілер'],
  ['Личный приём', 'Жеке қабылдау'],
  ['e-Otinish', 'e-Otinish'],
]

/** with the channel the service tells the citizen by (DESIGN 7.4); the others are the executor's to use */
const RESPONSE_METHODS: [string, string, 'email' | 'sms' | null][] = [
  ['Телефонный звонок', 'Телефон қоңырауы', null],
  ['SMS', 'SMS', 'sms'],
  ['Электронная почта', 'Электрондық пошта', 'email'],
  ['Личный кабинет e-Otinish', 'e-Otinish жеке кабинеті', null],
  ['Бумажное письмо', 'Қағаз хат', null],
]

/** adds the sources and response methods missing; answers how many of each were added */
export async function seedSourcesAndMethods (db: AppDb): Promise<{ sources: number, response_methods: number }> {
  const added = { sources: 0, response_methods: 0 }
  for (const [i, [name, kk]] of SOURCES.entries()) {
    added.sources += (await db.insert(sources).values({ name, name_kk: kk, sort_order: i }).onConflictDoNothing().returning()).length
  }
  for (const [i, [name, kk, channel]] of RESPONSE_METHODS.entries()) {
    added.response_methods += (await db.insert(responseMethods).values({ name, name_kk: kk, sort_order: i, channel }).onConflictDoNothing().returning()).length
  }
  return added
}
