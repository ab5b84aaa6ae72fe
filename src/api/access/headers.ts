/** The rate and quota headers of docs/api.md "Response headers", from the windows and counters. */
import type { UsageScope, UsageSnapshot } from '../../core/ports/access-store.js';
import type { Offer } from './offers.js';
import type { RateLimiterRes } from 'rate-limiter-flexible';

export function rateHeaders(offer: Offer, minute: RateLimiterRes, wallClock: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(offer.perMinute),
    'X-RateLimit-Remaining': String(minute.remainingPoints),
    'X-RateLimit-Reset': String(Math.ceil((wallClock + minute.msBeforeNext) / 1000)),
  };
}

/**
 * The X-RateLimit-* headers of a per-second or per-minute refusal: nothing remains, and the reset is
 * when the refused window lets a request through again (the moment `Retry-After` names).
 */
export function refusedRateHeaders(offer: Offer, retryAfterMs: number, wallClock: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(offer.perMinute),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(Math.ceil((wallClock + retryAfterMs) / 1000)),
  };
}

export function quotaHeaders(offer: Offer, scope: UsageScope, usage: UsageSnapshot): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Quota-Items-Limit': String(offer.itemsPerDay),
    'X-Quota-Items-Used': String(usage.day),
    'X-Quota-Requests-Limit': String(offer.requestsPerDay),
    'X-Quota-Requests-Used': String(usage.requests),
  };
  // Legacy accounts have no monthly quota, hence none of the four X-Quota-Mois-* headers.
  if (offer.itemsPerMonth === null || !scope.month) return headers;
  headers['X-Quota-Mois-Limit'] = String(offer.itemsPerMonth);
  headers['X-Quota-Mois-Used'] = String(usage.month);
  headers['X-Quota-Mois-Remaining'] = String(Math.max(0, offer.itemsPerMonth - usage.month));
  // The free offer's rolling window has no reset date.
  if (scope.month.kind === 'period') headers['X-Quota-Mois-Reset'] = new Date(scope.month.end).toISOString();
  return headers;
}
