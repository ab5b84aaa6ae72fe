/** Windows of test accounts on the real offers, at a time the test chooses (no sleeping). */
import type { Account, UsageScope } from '../../../src/core/ports/access-store.js';
import { loadOffers } from '../../../src/api/access/offers.js';
import { usageScope } from '../../../src/api/access/windows.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Accounts are created on the 1st: billing periods run from the 1st of each month. */
export const CREATED_AT = '2026-01-01T00:00:00.000Z';
export const T0 = Date.parse('2026-03-10T12:00:00Z');

const offers = loadOffers();

/** `period`: a subscription (Secteur); `rolling`: the free offer; `legacy`: no monthly window. */
export type WindowKind = 'period' | 'rolling' | 'legacy';
const OFFER_OF: Record<WindowKind, string> = { period: 'secteur', rolling: 'decouverte', legacy: 'legacy' };

export function scopeAt(accountId: string, now: number, kind: WindowKind = 'period'): UsageScope {
  const account: Account = { id: accountId, offer: OFFER_OF[kind], created_at: CREATED_AT, history_days: 0, annonces_from: '2026-01-01' };
  return usageScope(account, offers.get(account.offer)!, now);
}

let counter = 0;
export const newAccountId = (label: string): string => `${label}-${process.pid}-${++counter}`;

export const ids = (prefix: string, count: number, from = 0): string[] => Array.from({ length: count }, (_, i) => `${prefix}:${from + i}`);
