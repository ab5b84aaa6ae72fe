/**
 * The notifier's index of alerts (src/core/alerts/alert-index.ts): for every listing it returns
 * exactly the alerts that matching the listing against each alert in turn (inScope, matchesFilter)
 * keeps, whichever key an alert is filed under, several values of it, or none.
 */
import { expect } from 'chai';
import { AlertIndex } from '../../../src/core/alerts/alert-index.js';
import { inScope, matchesFilter } from '../../../src/core/query/listing-match.js';
import type { ListingFilter, Scope } from '../../../src/core/query/query.js';
import { makeListings } from '../../support/fixtures.js';

const FILTERS: ListingFilter[] = [
  {},
  { postalCode: '69003' },
  { postalCode: '75016', cities: ['paris'], department: '75' },
  { cities: ['lyon'] },
  { cities: ['saint etienne', 'lyon', 'lyon'], transaction: 'location' },
  { cities: ['paris'], priceMin: 200_000, priceMax: 600_000 },
  { cities: [], department: '2A' },
  { department: '69', types: ['maison'] },
  { region: 'auvergne rhone alpes', surfaceMin: 50 },
  { types: ['appartement', 'maison'] },
  { types: ['parking'], transaction: 'vente', roomsMin: 2 },
  { transaction: 'vente' },
  { transaction: 'location', words: ['balcon'] },
  { priceMax: 400_000 },
  { area: { kind: 'circle', centre: { lat: 45.76, lon: 4.84 }, radiusKm: 8 } },
  { postalCode: '', cities: ['nowhere'] },
];

const SCOPES: Scope[] = [
  { enteredFrom: 0, eligibleSites: null },
  { enteredFrom: Date.parse('2026-08-20T00:00:00Z'), eligibleSites: ['seloger', 'pap'] },
];

describe('alert index', () => {
  const listings = makeListings({ count: 600, seed: 23 });
  const entries = FILTERS.flatMap((filter, n) => SCOPES.map((scope, s) => ({ item: `${n}/${s}`, filter, scope })));
  const index = new AlertIndex(entries);

  it('keeps, for every listing, exactly the alerts a match against each one keeps', () => {
    let kept = 0;
    for (const listing of listings) {
      const expected = entries.filter(({ filter, scope }) => inScope(listing, scope) && matchesFilter(listing, filter)).map(({ item }) => item);
      const found = index.matching(listing);
      expect([...found].sort(), listing.id).to.deep.equal([...expected].sort());
      kept += found.length;
    }
    // Neither nothing nor everything: the comparison proves something.
    expect(kept).to.be.within(listings.length, listings.length * entries.length - 1);
  });

  it('returns each alert at most once, even when it lists a value twice', () => {
    const lyon = listings.find((listing) => listing.content.city === 'Lyon' && listing.content.transaction_type === 'location');
    expect(lyon).to.not.equal(undefined);
    const found = new AlertIndex([{ item: 'a', filter: { cities: ['lyon', 'lyon', 'saint etienne'] }, scope: SCOPES[0] }]).matching(lyon!);
    expect(found).to.deep.equal(['a']);
  });
});
