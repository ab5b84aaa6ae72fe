/**
 * Metering: rate limits (per second, per minute, per day) and the unique-listing quotas of SPEC.md
 * "Limits", on top of the AccessStore counters. The HTTP middlewares `rateLimit` and `meter` call it.
 */
import type { Caller } from '../http/state.js';

/** What a request costs before it runs: a request token (every metered call) and the quota check. */
export type MeterKind =
  | 'listings'   // search, feed, withdrawn, detail: count unique listings delivered
  | 'map'        // counts nothing (SPEC.md: map points are free)
  | 'ptz'        // one request token on success
  | 'ping'       // nothing at all, answers even past the quota
  | 'sources';

export interface Metering {
  /** Per-second and per-minute windows and the daily request cap. Throws ApiError 429. */
  limitRate(caller: Caller, now: number): Promise<Record<string, string>>;
  /** Refuses before any search when a quota is exhausted (ApiError 402). */
  checkQuota(caller: Caller, kind: MeterKind, now: number): Promise<void>;
  /** Counts the listings a response delivered; returns the quota headers of SPEC.md. */
  recordDelivery(caller: Caller, listingIds: string[], now: number): Promise<Record<string, string>>;
  /** Quota headers without counting anything (map, sources, ptz). */
  quotaHeaders(caller: Caller, now: number): Promise<Record<string, string>>;
}
