// The service and its CLI as separate processes, as `npm start` and `npm run cli` run them.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after } from 'node:test'
import { testEnv } from './app.js'
import { costOfService } from './costs.js'
import { nodeArgs } from './runnable.js'

const workDirs: string[] = []
export function tempDir (): string {
  const dir = mkdtempSync(join(tmpdir(), 'appeals-proc-'))
  workDirs.push(dir)
  return dir
}
after(() => { for (const dir of workDirs) rmSync(dir, { recursive: true, force: true }) })

export function startService (env: Record<string, string>) {
  const child = spawn(process.execPath, nodeArgs('src/main.ts'), {
    env: { ...process.env, ...testEnv, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const listening = costOfService(() => new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
      if (m) resolve(m[1]!)
    })
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)))
  }))
  listening.catch(() => {}) // a test that expects the exit does not wait for listening
  return { child, exited, listening, output: () => ({ stdout, stderr }) }
}

/** the CLI as `npm run cli` runs it; answers its exit code and what it wrote */
export function cli (args: string[], env: Record<string, string>): Promise<{ code: number | null, out: string, err: string }> {
  const child = spawn(process.execPath, [...nodeArgs('src/cli.ts'), ...args], { env: { ...process.env, ...testEnv, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { err += d.toString() })
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })))
}
