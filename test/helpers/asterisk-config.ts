import { readFileSync } from 'node:fs'
import { join } from 'node:path'
/** A small parser of Asterisk's .conf format, enough to check what the generators write. */
export interface ConfSection { name: string, lines: string[], options: [string, string][] }

export function parseConf (text: string): ConfSection[] {
  const sections: ConfSection[] = []
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/;.*$/, '').trim()
    if (line === '') continue
    const header = /^\[([^\]\s]+)\]$/.exec(line)
    if (header) { sections.push({ name: header[1]!, lines: [], options: [] }); continue }
    if (line.startsWith('[')) throw new Error(`line ${i + 1}: malformed section header: ${raw}`)
    const current = sections.at(-1)
    if (!current) throw new Error(`line ${i + 1}: option outside a section: ${raw}`)
    const option = /^([A-Za-z0-9_-]+)\s*=>?\s*(.*)$/.exec(line) ?? /^(same)\s*=>\s*(.*)$/.exec(line)
    if (!option) throw new Error(`line ${i + 1}: not an option: ${raw}`)
    current.lines.push(line)
    current.options.push([option[1]!, option[2]!])
  }
  return sections
}

/**
 * The options of Asterisk 22's configuration reference (res_pjsip, app_queue) that the generators may
 * write, by section type; deprecated ones (`md5_cred`, `auth_type=md5`) are left out on purpose.
 */
export const asterisk22Options: Record<string, readonly string[]> = {
  transport: ['type', 'protocol', 'bind', 'local_net', 'external_media_address', 'external_signaling_address', 'cert_file', 'priv_key_file', 'method'],
  endpoint: ['type', 'transport', 'context', 'disallow', 'allow', 'direct_media', 'rtp_symmetric', 'force_rport', 'rewrite_contact',
    'language', 'aors', 'auth', 'callerid', 'mailboxes', 'set_var', 'webrtc', 'dtls_auto_generate_cert'],
  auth: ['type', 'auth_type', 'username', 'realm', 'password_digest', 'supported_algorithms_uas', 'supported_algorithms_uac', 'nonce_lifetime'],
  aor: ['type', 'max_contacts', 'remove_existing', 'qualify_frequency'],
  'queues.conf [general]': ['persistentmembers', 'autofill', 'monitor-type', 'shared_lastcall', 'log_membername_as_agent'],
  'queues.conf queue': ['strategy', 'setinterfacevar', 'timeout', 'retry', 'wrapuptime', 'ringinuse', 'joinempty', 'leavewhenempty', 'member', 'musicclass', 'maxlen', 'servicelevel',
    'announce-position', 'announce-holdtime', 'announce-frequency', 'periodic-announce', 'periodic-announce-frequency'],
}

/** RFC 8760's digest algorithms as Asterisk names them, with the length of each hex digest */
export const digestAlgorithms: Record<string, number> = { MD5: 32, 'SHA-256': 64, 'SHA-512-256': 64 }

/** a generated file as Asterisk reads it: every `#include` replaced by the file it names (the organizations' own files) */
export function readConfig (dir: string, name: string): string {
  const inline = (text: string): string => text.replace(/^#include (\S+)$/gm, (_, path: string) => inline(readFileSync(path, 'utf8')).replace(/\n$/, ''))
  return inline(readFileSync(join(dir, name), 'utf8'))
}
