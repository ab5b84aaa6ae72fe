/** Bodies and headers of the 402 and 429 answers (src/api/access/refusals.ts). */
import { expect } from 'chai';
import { dailyQuotaExceeded, monthlyQuotaReached, rateLimited } from '../../../src/api/access/refusals.js';
import { loadOffers } from '../../../src/api/access/offers.js';
import type { UsageScope, UsageSnapshot } from '../../../src/core/ports/access-store.js';

const offers = loadOffers();
const NOW = Date.parse('2026-03-10T12:00:00Z');
const usage: UsageSnapshot = { requests: 3, day: 210, dayOldest: NOW - 3_600_000, month: 1005, monthOldest: NOW - 5 * 86_400_000 };
const period: UsageScope = {
  accountId: 'a',
  now: NOW,
  dayMs: 86_400_000,
  month: { kind: 'period', start: Date.parse('2026-03-01T00:00:00Z'), end: Date.parse('2026-04-01T00:00:00Z') },
  requestDay: { start: Date.parse('2026-03-10T00:00:00Z'), end: Date.parse('2026-03-11T00:00:00Z') },
};
const rolling: UsageScope = { ...period, month: { kind: 'rolling', ms: 30 * 86_400_000 } };

describe('quota refusals', function () {
  it('ITEMS_QUOTA on a subscription: repart_le and the next tier', function () {
    const error = monthlyQuotaReached(offers.get('secteur')!, period, usage, offers);
    expect(error.status).to.equal(402);
    expect(error.body()).to.deep.equal({
      error: error.message,
      code: 'ITEMS_QUOTA',
      quota: 1000,
      consomme: 1005,
      repart_le: '2026-04-01T00:00:00.000Z',
      palier_suivant: { offre: 'ville', annonces_par_mois: 5000 },
    });
  });

  it('ITEMS_QUOTA on the free offer: se_libere_le when the oldest listing leaves the 30 days', function () {
    const body = monthlyQuotaReached(offers.get('decouverte')!, rolling, usage, offers).body();
    expect(body).to.include({ se_libere_le: '2026-04-04T12:00:00.000Z' });
    expect(body).to.not.have.property('repart_le');
    expect(body.palier_suivant).to.deep.equal({ offre: 'secteur', annonces_par_mois: 1000 });
  });

  it('ITEMS_QUOTA at the top: Sur mesure has no fixed volume, and nothing comes after it', function () {
    expect(monthlyQuotaReached(offers.get('plateforme')!, period, usage, offers).body().palier_suivant).to.deep.equal({
      offre: 'sur_mesure',
      annonces_par_mois: null,
    });
    expect(monthlyQuotaReached(offers.get('sur_mesure')!, period, usage, offers).body().palier_suivant).to.equal(null);
  });

  it('QUOTA_EXCEEDED says when the daily window frees', function () {
    const error = dailyQuotaExceeded(offers.get('secteur')!, period, usage);
    expect(error.status).to.equal(402);
    expect(error.body()).to.deep.equal({ error: error.message, code: 'QUOTA_EXCEEDED', quota: 200, consomme: 210, se_libere_le: '2026-03-11T11:00:00.000Z' });
  });

  it('429s carry retry_after_seconds and Retry-After, rounded up to whole seconds', function () {
    for (const [window, code] of [
      ['second', 'RATE_LIMIT_PER_SEC'],
      ['minute', 'RATE_LIMIT_PER_MIN'],
      ['day', 'RATE_LIMIT_PER_DAY'],
    ] as const) {
      const error = rateLimited(window, 1_200, 5);
      expect(error.status).to.equal(429);
      expect(error.body()).to.deep.equal({ error: error.message, code, retry_after_seconds: 2 });
      expect(error.headers).to.deep.equal({ 'Retry-After': '2' });
    }
    expect(rateLimited('second', 0, 1).body().retry_after_seconds).to.equal(1);
  });
});
