// Prints the SQL that ships Kazakhstan's working calendar for the given years (default: the shipped
// ones), as computed by src/modules/calendar/kz-holidays.ts. For a new year: add its Kurban Ait date
// and known transfers there, then `npx drizzle-kit generate --custom --name kz_calendar_YYYY` and
// `npm run calendar:sql -- YYYY > drizzle/<that file>`.
import { kazakhstanCalendar, SHIPPED_YEARS } from '../src/modules/calendar/kz-holidays.js'

const years = process.argv.slice(2).map(Number)
const rows = (years.length > 0 ? years : SHIPPED_YEARS).flatMap((y) => kazakhstanCalendar(y))
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`
process.stdout.write('-- Kazakhstan\'s working calendar (src/modules/calendar/kz-holidays.ts; test/seed.test.ts checks the two agree)\n' +
  'INSERT INTO "calendar_days" ("day", "kind", "name") VALUES\n' +
  rows.map((r) => `  (${literal(r.day)}, ${literal(r.kind)}, ${literal(r.name)})`).join(',\n') +
  '\nON CONFLICT ("day") DO NOTHING;\n')
