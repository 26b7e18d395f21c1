import { readFileSync } from 'node:fs'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string, version: string }

export const serviceName = pkg.name
export const serviceVersion = pkg.version
