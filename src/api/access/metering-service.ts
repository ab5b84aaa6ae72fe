/**
 * The one implementation of Metering, on top of the AccessStore counters (Redis or SQLite), so the
 * HTTP behaviour is identical on both adapters.
 *
 * A listing request: rate windows (429) -> one atomic admission (daily request cap 429, listing
 * quotas 402, request token) -> search -> one atomic count of the delivered ids. The count refuses
 * only when a quota was already full before it: the page that crosses the limit is served whole,
 * and concurrent requests can overshoot the monthly limit by at most one page.
 */
import type { Caller } from './caller.js';
import type { UsageCounters, UsageRefusal, UsageScope, UsageSnapshot } from '../../core/ports/access-store.js';
import type { Metering, MeterKind } from './metering.js';
import type { OfferCatalog } from './offers.js';
import type { RateWindows } from './rate-windows.js';
import { quotaHeaders, rateHeaders, refusedRateHeaders } from './headers.js';
import { dailyQuotaExceeded, monthlyQuotaReached, rateLimited } from './refusals.js';
import { usageScope } from './windows.js';

export class MeteringService implements Metering {
  constructor(
    private readonly counters: UsageCounters,
    private readonly offers: OfferCatalog,
    private readonly rates: RateWindows,
    /** Wall clock of the rate windows (rate-limiter-flexible keeps real time). */
    private readonly wallClock: () => number = Date.now,
  ) {}

  async limitRate(caller: Caller, _now: number): Promise<Record<string, string>> {
    const { offer } = caller;
    const outcome = await this.rates.take(offer, caller.account.id);
    if (outcome.refused) {
      const limit = outcome.refused === 'second' ? offer.perSecond : offer.perMinute;
      throw rateLimited(outcome.refused, outcome.retryAfterMs, limit, refusedRateHeaders(offer, outcome.retryAfterMs, this.wallClock()));
    }
    return rateHeaders(offer, outcome.window, this.wallClock());
  }

  async checkQuota(caller: Caller, kind: MeterKind, now: number): Promise<void> {
    if (kind === 'ping') return;
    const scope = this.scope(caller, now);
    const { refused, usage } = await this.counters.admit(scope, {
      requestLimit: caller.offer.requestsPerDay,
      // Once a listing quota is reached every keyed endpoint but /ping answers 402 (docs/api.md "Error
      // codes"); managing alerts too goes on, so a client sees the deliveries waiting for its quota.
      items: kind === 'alerts' ? null : this.limits(caller),
      take: kind !== 'ptz',
    });
    if (refused) throw this.refusal(refused, caller, scope, usage);
  }

  async recordDelivery(caller: Caller, listingIds: string[], now: number): Promise<Record<string, string>> {
    const scope = this.scope(caller, now);
    const result = await this.counters.consumeListings(scope, [...new Set(listingIds)], this.limits(caller));
    // Another request of the account filled the quota while this one searched: nothing is served unmetered.
    if (result.refused) throw this.refusal(result.refused, caller, scope, result.usage);
    return quotaHeaders(caller.offer, scope, result.usage);
  }

  async recordRequest(caller: Caller, now: number): Promise<Record<string, string>> {
    const scope = this.scope(caller, now);
    // The lookup already succeeded and was admitted before: its token is taken even if the cap filled meanwhile.
    const { usage } = await this.counters.admit(scope, { requestLimit: null, items: null, take: true });
    return quotaHeaders(caller.offer, scope, usage);
  }

  async currentHeaders(caller: Caller, now: number): Promise<Record<string, string>> {
    const [window, quota] = await Promise.all([this.rates.peek(caller.offer, caller.account.id), this.quotaHeaders(caller, now)]);
    return { ...rateHeaders(caller.offer, window, this.wallClock()), ...quota };
  }

  async quotaHeaders(caller: Caller, now: number): Promise<Record<string, string>> {
    const scope = this.scope(caller, now);
    return quotaHeaders(caller.offer, scope, await this.counters.readUsage(scope));
  }

  private scope(caller: Caller, now: number): UsageScope {
    return usageScope(caller.account, caller.offer, now);
  }

  private limits(caller: Caller) {
    return { day: caller.offer.itemsPerDay, month: caller.offer.itemsPerMonth };
  }

  private refusal(refused: UsageRefusal, caller: Caller, scope: UsageScope, usage: UsageSnapshot) {
    if (refused === 'month') return monthlyQuotaReached(caller.offer, scope, usage, this.offers);
    if (refused === 'day') return dailyQuotaExceeded(caller.offer, scope, usage);
    return rateLimited('day', scope.requestDay.end - scope.now, caller.offer.requestsPerDay);
  }
}
