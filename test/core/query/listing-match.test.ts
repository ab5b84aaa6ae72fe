/**
 * The notifier's in-memory match (src/core/query/listing-match.ts) against the stores themselves:
 * for every filter key and both scope rules, the listings it keeps are exactly those the change feed
 * of each engine serves for the same query, so an alert delivers what a client following the feed
 * with the alert's filters would receive.
 */
import { expect } from 'chai';
import type { ListingStore } from '../../../src/core/ports/listing-store.js';
import type { ListingFilter, Scope } from '../../../src/core/query/query.js';
import { inScope, matchesFilter } from '../../../src/core/query/listing-match.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { makeListings } from '../../support/fixtures.js';
import { newStoreFile } from '../../support/sqlite-store-files.js';
import { describeEngines } from '../../support/engines.js';
import { openTestElasticsearchStore } from '../../support/elasticsearch.js';
import { LISTING_FILTER_KEYS } from '../../support/filter-keys.js';

const FILTERS: ListingFilter[] = [
  {},
  { department: '2A' },
  { types: ['maison'], transaction: 'vente' },
  { cities: ['saint etienne', 'lyon'] },
  { postalCode: '69003', region: 'auvergne rhone alpes' },
  { priceMin: 200_000, priceMax: 600_000 },
  { pricePerM2Min: 1000, pricePerM2Max: 8000 },
  { surfaceMin: 40.5, surfaceMax: 120 },
  { roomsMin: 3, bedroomsMin: 2 },
  { yearMin: 1900, yearMax: 2000 },
  { dpe: ['A', 'B', 'C'], ges: ['D', 'E'] },
  { updatedSince: Date.parse('2026-09-02T00:00:00Z'), createdSince: Date.parse('2026-08-30T00:00:00Z') },
  { relisted: true },
  { relisted: false, department: '69' },
  { words: ['balcon', 'calme'] },
  { words: ['cheminee'], department: '69' },
  // Around Lyon: a concave polygon, and a circle.
  {
    area: {
      kind: 'polygon',
      vertices: [
        { lat: 45.6, lon: 4.6 },
        { lat: 45.95, lon: 4.6 },
        { lat: 45.78, lon: 4.84 },
        { lat: 45.95, lon: 5.1 },
        { lat: 45.6, lon: 5.1 },
      ],
    },
  },
  { area: { kind: 'circle', centre: { lat: 45.76, lon: 4.84 }, radiusKm: 8 }, transaction: 'vente' },
  // An empty list or text sets no filter, in memory as in the stores.
  { types: [], dpe: [], words: [], postalCode: '', department: '69' },
];

const SCOPES: Scope[] = [
  { enteredFrom: 0, eligibleSites: null },
  { enteredFrom: Date.parse('2026-08-20T00:00:00Z'), eligibleSites: ['seloger', 'pap'] },
];

describeEngines('in-memory listing match', function (engine) {
  this.timeout(60_000);
  const listings = makeListings({ count: 600, seed: 11 });
  let store: ListingStore;

  before(async () => {
    store = engine === 'sqlite' ? new SqliteListingStore(newStoreFile('match')) : await openTestElasticsearchStore('match');
    await store.upsertMany(listings);
  });
  after(() => store.close());

  it('uses every key of ListingFilter', () => {
    expect(new Set(FILTERS.flatMap((filter) => Object.keys(filter)))).to.have.all.keys(...LISTING_FILTER_KEYS);
  });

  for (const [n, filter] of FILTERS.entries()) {
    for (const scope of SCOPES) {
      it(`keeps what the feed serves: ${JSON.stringify(filter)} ${scope.eligibleSites ? 'two sites, recent entries' : 'whole catalogue'}`, async () => {
        const served: string[] = [];
        for (let after = null as (number | string)[] | null; ; ) {
          const page = await store.feed({ filter, scope, changedUntil: Date.now(), pageSize: 200, after });
          served.push(...page.items.map((listing) => listing.id));
          if (!page.hasMore) break;
          after = page.last;
        }
        const kept = listings.filter((listing) => listing.status === 'active' && inScope(listing, scope) && matchesFilter(listing, filter));
        expect(served, `filter ${n}`).to.deep.equal(kept.map((listing) => listing.id));
        const active = listings.filter((listing) => listing.status === 'active').length;
        if (n > 0) expect(kept.length, 'a filter that keeps everything proves nothing').to.be.within(1, active - 1);
      });
    }
  }
});
