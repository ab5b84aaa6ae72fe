/** Billing periods and metering windows (src/api/access/windows.ts). */
import { expect } from 'chai';
import { billingPeriod, usageScope, DAY_MS, ROLLING_MONTH_MS } from '../../../src/api/access/windows.js';
import { loadOffers } from '../../../src/api/access/offers.js';
import type { Account } from '../../../src/core/ports/access-store.js';

const at = (iso: string) => Date.parse(iso);
const period = (createdAt: string, now: string) => {
  const { start, end } = billingPeriod(createdAt, at(now));
  return [new Date(start).toISOString().slice(0, 10), new Date(end).toISOString().slice(0, 10)];
};

describe('billing periods', function () {
  it('are anchored on the creation day of month', function () {
    expect(period('2026-01-15T09:30:00Z', '2026-03-20T00:00:00Z')).to.deep.equal(['2026-03-15', '2026-04-15']);
    expect(period('2026-01-15T09:30:00Z', '2026-03-14T23:59:59Z')).to.deep.equal(['2026-02-15', '2026-03-15']);
    expect(period('2026-01-15T09:30:00Z', '2026-03-15T00:00:00Z')).to.deep.equal(['2026-03-15', '2026-04-15']);
  });

  it('wrap around the year', function () {
    expect(period('2025-06-20T00:00:00Z', '2026-01-05T00:00:00Z')).to.deep.equal(['2025-12-20', '2026-01-20']);
    expect(period('2025-06-20T00:00:00Z', '2025-12-25T00:00:00Z')).to.deep.equal(['2025-12-20', '2026-01-20']);
  });

  it('clamp a day the month lacks, without drifting afterwards', function () {
    expect(period('2026-01-31T00:00:00Z', '2026-02-27T00:00:00Z')).to.deep.equal(['2026-01-31', '2026-02-28']);
    expect(period('2026-01-31T00:00:00Z', '2026-03-01T00:00:00Z')).to.deep.equal(['2026-02-28', '2026-03-31']);
    expect(period('2026-01-31T00:00:00Z', '2028-02-29T12:00:00Z')).to.deep.equal(['2028-02-29', '2028-03-31']);
  });
});

describe('usage scopes of the offers', function () {
  const offers = loadOffers();
  const account = (offer: string): Account => ({ id: 'a', offer, created_at: '2026-01-01T00:00:00.000Z', history_days: 0, annonces_from: '2026-01-01' });
  const now = at('2026-03-10T12:00:00Z');

  it('subscriptions use the billing period, the free offer 30 rolling days, legacy none', function () {
    expect(usageScope(account('ville'), offers.get('ville')!, now).month).to.deep.equal({
      kind: 'period',
      start: at('2026-03-01T00:00:00Z'),
      end: at('2026-04-01T00:00:00Z'),
    });
    expect(usageScope(account('decouverte'), offers.get('decouverte')!, now).month).to.deep.equal({ kind: 'rolling', ms: ROLLING_MONTH_MS });
    expect(usageScope(account('legacy'), offers.get('legacy')!, now).month).to.equal(null);
  });

  it('counts listings over 24 rolling hours and requests per UTC day', function () {
    const scope = usageScope(account('ville'), offers.get('ville')!, now);
    expect(scope.dayMs).to.equal(DAY_MS);
    expect(scope.requestDay).to.deep.equal({ start: at('2026-03-10T00:00:00Z'), end: at('2026-03-11T00:00:00Z') });
  });
});
