/**
 * Metering: rate limits (per second, per minute, per day) and the unique-listing quotas of docs/api.md
 * "Limits", on top of the AccessStore counters. The HTTP middlewares `rateLimit` and `meter` call it.
 * One implementation (metering-service.ts) serves both AccessStore adapters.
 */
import type { Caller } from './caller.js';

/** What a request costs before it runs: a request token (every metered call) and the quota check. */
export type MeterKind =
  | 'listings' // search, feed, withdrawn, detail: count unique listings delivered
  | 'map' // counts nothing (docs/api.md: map points are free)
  | 'ptz' // one request token, taken only after a successful lookup
  | 'ping' // nothing at all, answers even past the quota
  | 'sources' // one request token
  | 'stats' // one request token
  | 'alerts'; // managing alerts: one request token (their deliveries count listings in the notifier)
// Every kind but 'ping' and 'alerts' is refused once a listing quota is reached.

export interface Metering {
  /** Per-second and per-minute windows. Throws ApiError 429; returns the X-RateLimit-* headers. */
  limitRate(caller: Caller, now: number): Promise<Record<string, string>>;
  /**
   * Before the handler: refuses with 429 RATE_LIMIT_PER_DAY when the daily request cap is reached,
   * with 402 when a listing quota is (every kind but ping), then takes the request token (except PTZ).
   */
  checkQuota(caller: Caller, kind: MeterKind, now: number): Promise<void>;
  /** Counts the listings a response delivered; returns the quota headers of docs/api.md. */
  recordDelivery(caller: Caller, listingIds: string[], now: number): Promise<Record<string, string>>;
  /** Takes the request token of a call that succeeded (PTZ); returns the quota headers. */
  recordRequest(caller: Caller, now: number): Promise<Record<string, string>>;
  /** The X-RateLimit-* and quota headers as they stand, taking and counting nothing (`/ping`). */
  currentHeaders(caller: Caller, now: number): Promise<Record<string, string>>;
  /** Quota headers without counting anything (map, sources). */
  quotaHeaders(caller: Caller, now: number): Promise<Record<string, string>>;
}
