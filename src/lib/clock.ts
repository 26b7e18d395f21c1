/** The time source of the service; tests pass their own to move time forward. */
export type Clock = () => Date
export const systemClock: Clock = () => new Date()

/** a timestamp as the API writes it: ISO 8601 UTC, or null */
export const isoOrNull = (d: Date | null | undefined): string | null => d?.toISOString() ?? null
