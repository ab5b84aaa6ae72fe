/**
 * The windows an account is metered over (docs/api.md "Offers, quotas and headers"):
 * - daily listing quota: the last 24 hours (rolling);
 * - monthly listing quota: the billing period for subscriptions, the last 30 days for the free offer,
 *   none for legacy accounts;
 * - daily request cap: the UTC calendar day (a fixed window, so `Retry-After` names midnight UTC).
 *
 * Billing periods are monthly and anchored on the day of month the account was created (UTC): an
 * account created on 2026-01-15 has periods 15 Jan -> 15 Feb -> 15 Mar... at 00:00 UTC. A day the
 * month lacks is clamped (created on the 31st: 28/29 Feb, 31 Mar, 30 Apr...).
 */
import type { Account, UsageScope } from '../../core/ports/access-store.js';
import type { Offer } from './offers.js';

export const DAY_MS = 86_400_000;
export const ROLLING_MONTH_MS = 30 * DAY_MS;

export function usageScope(account: Account, offer: Offer, now: number): UsageScope {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  return {
    accountId: account.id,
    now,
    dayMs: DAY_MS,
    month:
      offer.itemsPerMonth === null
        ? null
        : offer.rollingMonth
          ? { kind: 'rolling', ms: ROLLING_MONTH_MS }
          : { kind: 'period', ...billingPeriod(account.created_at, now) },
    requestDay: { start: dayStart, end: dayStart + DAY_MS },
  };
}

/** The billing period [start, end) holding `now`, anchored on the creation day of month. */
export function billingPeriod(createdAt: string, now: number): { start: number; end: number } {
  const anchorDay = new Date(createdAt).getUTCDate();
  const today = new Date(now);
  let year = today.getUTCFullYear();
  let month = today.getUTCMonth();
  if (anchorOf(year, month, anchorDay) > now) [year, month] = month === 0 ? [year - 1, 11] : [year, month - 1];
  const [nextYear, nextMonth] = month === 11 ? [year + 1, 0] : [year, month + 1];
  return { start: anchorOf(year, month, anchorDay), end: anchorOf(nextYear, nextMonth, anchorDay) };
}

function anchorOf(year: number, month: number, anchorDay: number): number {
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(anchorDay, daysInMonth));
}
