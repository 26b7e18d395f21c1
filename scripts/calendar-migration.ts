// Prints the SQL that ships Kazakhstan's working calendar for the given years (default: the shipped
// ones), as computed by src/modules/calendar/kz-holidays.ts. For a new year: add its Kurban Ait date
// and known transfers there, then `npx drizzle-kit generate --custom --name kz_calendar_YYYY` and
// `npm run calendar:sql -- YYYY > drizzle/<that file>`. A day already there keeps what an admin made of
// it (an edit, or its removal).
//
// `--kazakh-names` prints instead the update that gave the days shipped before `name_kk` existed their
// Kazakh names (drizzle/0023), where their Russian name is still the shipped one.
import { kazakhstanCalendar, SHIPPED_YEARS } from '../src/modules/calendar/kz-holidays.js'

const kazakhNames = process.argv.includes('--kazakh-names')
const years = process.argv.slice(2).filter((a) => a !== '--kazakh-names').map(Number)
const rows = (years.length > 0 ? years : SHIPPED_YEARS).flatMap((y) => kazakhstanCalendar(y))
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`
const header = '-- Kazakhstan\'s working calendar (src/modules/calendar/kz-holidays.ts; test/seed.test.ts checks the two agree)\n'
process.stdout.write(kazakhNames
  ? header + 'UPDATE "calendar_days" SET "name_kk" = v."name_kk" FROM (VALUES\n' +
    rows.map((r) => `  (${literal(r.day)}::date, ${literal(r.name)}, ${literal(r.name_kk)})`).join(',\n') +
    '\n) AS v("day", "name", "name_kk") WHERE "calendar_days"."day" = v."day" AND "calendar_days"."name" = v."name";\n'
  : header + 'INSERT INTO "calendar_days" ("day", "kind", "name", "name_kk") VALUES\n' +
    rows.map((r) => `  (${literal(r.day)}, ${literal(r.kind)}, ${literal(r.name)}, ${literal(r.name_kk)})`).join(',\n') +
    '\nON CONFLICT ("day") DO NOTHING;\n')
