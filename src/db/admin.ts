import pg from 'pg'

/**
 * Creating and dropping whole PostgreSQL databases, for the tooling (the test runner, the tests and
 * the benchmarks), never for the service: one statement on its own connection (CREATE and DROP
 * DATABASE cannot run in a transaction), as a role that may create databases.
 */
export async function adminQuery (url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try { await client.query(text) } finally { await client.end() }
}

/** the URL of another database on the same server, as the same role */
export function databaseUrlNamed (url: string, name: string): string {
  const target = new URL(url)
  target.pathname = `/${name}`
  return target.toString()
}

/** the name of the database `url` names */
export function databaseName (url: string): string {
  return new URL(url).pathname.slice(1) || 'postgres'
}

/**
 * `drop database ... with (force)` fails while an autovacuum worker (a backend our role may not
 * terminate) is busy in the database: wait for it to finish and try again.
 */
export async function dropDatabase (url: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `drop database if exists "${name}" with (force)`)
      return
    } catch (err) {
      if ((err as { code?: string }).code !== '42501' || attempt === 20) throw err
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
