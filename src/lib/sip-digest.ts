import { createHash } from 'node:crypto'

const md5 = (text: string) => createHash('md5').update(text).digest('hex')

/**
 * The digests of `username:realm:password` that SIP digest authentication checks against (RFC 8760),
 * computed once when the password is set: MD5 for every phone, SHA-256 for phones that offer it.
 * Asterisk 22 reads them as `password_digest = <algorithm>:<hex>`; the password itself is not kept.
 */
export function sipCredentials (id: string, realm: string, password: string) {
  const credential = `${id}:${realm}:${password}`
  return {
    md5_cred: md5(credential),
    password_digest: `SHA-256:${createHash('sha256').update(credential).digest('hex')}`,
  }
}
