import { jwtVerify, SignJWT } from 'jose'
import type { Clock } from './clock.js'
import { setBounded } from './collections.js'

export interface AccessClaims {
  sub: string
  role: string
  organization_id: number | null
  /** the user's token version when the token was issued */
  tv: number
}

export interface TokenSubject { id: number, role: string, organization_id: number | null, token_version: number }

const MAX_VERIFIED = 10_000

/** HS256 access tokens. Only HS256 is accepted on verification (no `alg: none`, no key confusion). */
export function createTokenIssuer ({ secret, ttlSeconds, clock }: { secret: string, ttlSeconds: number, clock: Clock }) {
  // imported once: given the raw bytes, jose would import a key for every token it signs or checks
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
  // A console sends the same token with every request: its signature is checked once, its expiry
  // every time. Kept by its signature (43 characters to hash rather than the whole token's ~250 on
  // every request); the whole token must still be the same.
  const verified = new Map<string, { token: string, claims: AccessClaims, expiresAt: number }>()
  const signatureOf = (token: string) => token.slice(token.lastIndexOf('.') + 1)
  const knownCheck = (token: string) => {
    const known = verified.get(signatureOf(token))
    return known?.token === token ? known : undefined
  }

  /** without waiting: the claims of a token whose signature was checked before, null once it expired, undefined when not known */
  function verifyKnown (token: string): AccessClaims | null | undefined {
    const known = knownCheck(token)
    if (!known) return undefined
    if (known.expiresAt > clock().getTime()) return known.claims
    verified.delete(signatureOf(token))
    return null
  }

  async function verifySignature (token: string): Promise<{ token: string, claims: AccessClaims, expiresAt: number } | undefined> {
    try {
      const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'], currentDate: clock(), requiredClaims: ['sub', 'exp'] })
      const { sub, role, organization_id: organizationId, tv } = payload
      if (typeof tv !== 'number' || typeof role !== 'string' || sub === undefined || !/^\d+$/.test(sub)) return undefined
      if (organizationId !== null && typeof organizationId !== 'number') return undefined
      return { token, claims: { sub, role, organization_id: organizationId, tv }, expiresAt: payload.exp! * 1000 }
    } catch {
      return undefined
    }
  }

  return {
    ttlSeconds,
    sign: async (user: TokenSubject): Promise<string> => {
      const now = Math.floor(clock().getTime() / 1000)
      return new SignJWT({ role: user.role, organization_id: user.organization_id, tv: user.token_version })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(user.id))
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(await key)
    },
    /** The claims of a valid token; undefined for anything else. */
    verify: async (token: string): Promise<AccessClaims | undefined> => {
      const known = verifyKnown(token)
      if (known !== undefined) return known ?? undefined
      const checked = await verifySignature(token)
      if (!checked || checked.expiresAt <= clock().getTime()) return undefined
      setBounded(verified, signatureOf(token), checked, MAX_VERIFIED)
      return checked.claims
    },
    verifyKnown,
  }
}

export type TokenIssuer = ReturnType<typeof createTokenIssuer>
