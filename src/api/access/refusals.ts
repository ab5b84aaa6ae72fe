/**
 * The 402 and 429 answers of docs/api.md "Error codes". A 429 carries `Retry-After` (and `X-Annonces-From`,
 * set by authenticate; the per-second and per-minute ones also `X-RateLimit-*`) but never the quota counters; a 402 names the resumption date so that
 * clients wait for it instead of retrying in a loop.
 */
import { ApiError } from '../http/errors.js';
import type { UsageScope, UsageSnapshot } from '../../core/ports/access-store.js';
import type { Offer, OfferCatalog } from './offers.js';
import type { RateWindowName } from './rate-windows.js';

const iso = (ms: number): string => new Date(ms).toISOString();

export function rateLimited(window: RateWindowName | 'day', retryAfterMs: number, limit: number, headers: Record<string, string> = {}): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const { code, per } = {
    second: { code: 'RATE_LIMIT_PER_SEC', per: 'second' },
    minute: { code: 'RATE_LIMIT_PER_MIN', per: 'minute' },
    day: { code: 'RATE_LIMIT_PER_DAY', per: 'day (UTC)' },
  }[window];
  return new ApiError(
    429,
    code,
    `Too many requests: the limit is ${limit} per ${per}; retry in ${seconds} s.`,
    { retry_after_seconds: seconds },
    { ...headers, 'Retry-After': String(seconds) },
  );
}

/** Daily listing quota reached: it frees when the oldest listing counted leaves the 24-hour window. */
export function dailyQuotaExceeded(offer: Offer, scope: UsageScope, usage: UsageSnapshot): ApiError {
  const freesAt = iso((usage.dayOldest ?? scope.now) + scope.dayMs);
  return new ApiError(402, 'QUOTA_EXCEEDED', `Daily quota of ${offer.itemsPerDay} unique listings over 24 hours reached; it frees up from ${freesAt}.`, {
    quota: offer.itemsPerDay,
    consomme: usage.day,
    se_libere_le: freesAt,
  });
}

/** Monthly listing quota reached: resumes with the next billing period, or as the rolling window frees. */
export function monthlyQuotaReached(offer: Offer, scope: UsageScope, usage: UsageSnapshot, offers: OfferCatalog): ApiError {
  const month = scope.month;
  if (!month || offer.itemsPerMonth === null) throw new Error(`offer ${offer.id} has no monthly quota`);
  const resumption = month.kind === 'period' ? { repart_le: iso(month.end) } : { se_libere_le: iso((usage.monthOldest ?? scope.now) + month.ms) };
  const when = 'repart_le' in resumption ? `it resets on ${resumption.repart_le}` : `it frees up from ${resumption.se_libere_le}`;
  return new ApiError(
    402,
    'ITEMS_QUOTA',
    `Monthly quota of ${offer.itemsPerMonth} new listings reached; ${when}. Listing endpoints answer 402 until then; /ping still answers.`,
    { quota: offer.itemsPerMonth, consomme: usage.month, ...resumption, palier_suivant: nextTier(offer, offers) },
  );
}

function nextTier(offer: Offer, offers: OfferCatalog): { offre: string; annonces_par_mois: number | null } | null {
  const next = offer.next ? offers.get(offer.next) : undefined;
  if (!next) return null;
  return { offre: next.id, annonces_par_mois: next.negotiated ? null : next.itemsPerMonth };
}
