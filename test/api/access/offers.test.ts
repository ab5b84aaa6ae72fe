/** The offers table of docs/api.md "Offers, quotas and headers" is configuration (src/config/offers.json); this checks it. */
import { expect } from 'chai';
import { loadOffers } from '../../../src/api/access/offers.js';

describe('offers configuration', function () {
  const offers = loadOffers();

  it('matches the table of docs/api.md', function () {
    const table = offers.offers
      .filter((o) => o.id !== 'sur_mesure' && o.id !== 'legacy')
      .map((o) => [o.id, o.itemsPerMonth, o.itemsPerDay, o.requestsPerDay, o.perMinute, o.perSecond]);
    expect(table).to.deep.equal([
      ['decouverte', 50, 200, 300, 60, 1],
      ['secteur', 1000, 200, 600, 60, 1],
      ['ville', 5000, 500, 1500, 60, 1],
      ['departement', 20000, 2000, 6000, 60, 1],
      ['region', 60000, 6000, 18000, 120, 2],
      ['national', 150000, 15000, 45000, 300, 5],
      ['plateforme', 400000, 40000, 120000, 600, 10],
    ]);
  });

  it('derives the daily listing cap: a tenth of the monthly volume, at least 200', function () {
    for (const offer of offers.offers.filter((o) => o.itemsPerMonth !== null && !o.negotiated)) {
      expect(offer.itemsPerDay, offer.id).to.equal(Math.max(200, offer.itemsPerMonth! / 10));
    }
  });

  it('reserves site filters and price series to offers from 118,80 EUR TTC (Département and above)', function () {
    const paid = offers.offers.filter((o) => o.siteFilters).map((o) => o.id);
    expect(paid).to.deep.equal(['departement', 'region', 'national', 'plateforme', 'sur_mesure']);
    expect(offers.offers.filter((o) => o.priceSeries).map((o) => o.id)).to.deep.equal(paid);
  });

  it('gives the free offer a rolling month and legacy accounts no monthly quota', function () {
    expect(offers.offers.filter((o) => o.rollingMonth).map((o) => o.id)).to.deep.equal(['decouverte']);
    expect(offers.get('legacy')!.itemsPerMonth).to.equal(null);
  });

  it('chains every offer to a configured next tier', function () {
    for (const offer of offers.offers) if (offer.next) expect(offers.has(offer.next), offer.id).to.equal(true);
  });
});
