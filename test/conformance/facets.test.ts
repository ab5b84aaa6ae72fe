/**
 * Conformance of ListingStore.facets on every engine against a brute-force count: each facet counts
 * the query's listings without its own filter, by value or by range; its buckets, `other` and
 * `unknown` add up to that count, and to `total` when the query has no filter of the facet's own.
 */
import { expect } from 'chai';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingFilter, Scope } from '../../src/core/query/query.js';
import { FACET_NAMES, facetRanges, type FacetCounts, type FacetName } from '../../src/core/query/facets.js';
import { foldText } from '../../src/core/refdata/text.js';
import { FIXTURE_SITES, makeListings } from '../support/fixtures.js';
import { CONFORMANCE_ENGINES, describeEngines, storeHolding } from '../support/engines.js';
import { matchesFilter, visibleInSearch } from '../support/oracle.js';

const ALL: Scope = { enteredFrom: 0, eligibleSites: null };

/** The filter fields each facet owns, written out here apart from the code under test. */
const OWN: Record<FacetName, (keyof ListingFilter)[]> = {
  type: ['types'],
  pieces: ['roomsMin'],
  dpe: ['dpe'],
  prix: ['priceMin', 'priceMax'],
  surface: ['surfaceMin', 'surfaceMax'],
  source: [],
};

const facetValueOf = (l: StoredListing, name: FacetName): string | number | null => {
  const c = l.content;
  return { type: foldText(c.type), pieces: c.rooms, dpe: c.dpe, source: c.source, prix: c.price, surface: c.surface }[name];
};

/** The listings a facet counts: visible in its scope, matching every filter but its own. */
function counted(listings: StoredListing[], filter: ListingFilter, scope: Scope, grouped: boolean, name: FacetName): StoredListing[] {
  const rest: ListingFilter = { ...filter };
  for (const field of OWN[name]) delete rest[field];
  const facetScope = name === 'source' ? { ...scope, eligibleSites: null } : scope;
  return listings.filter((l) => visibleInSearch(l, facetScope, grouped) && matchesFilter(l, rest));
}

function expectedFacet(listings: StoredListing[], filter: ListingFilter, name: FacetName): FacetCounts {
  const values = listings.map((l) => facetValueOf(l, name));
  const unknown = values.filter((v) => v === null).length;
  if (name === 'prix' || name === 'surface') {
    const buckets = facetRanges(name, filter).map((r) => ({
      ...r,
      count: values.filter((v) => v !== null && (v as number) >= r.from && (r.to === null || (v as number) < r.to)).length,
    }));
    return { kind: 'range', buckets, unknown };
  }
  const counts = new Map<string | number, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  const buckets = [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return { kind: 'value', buckets, other: 0, unknown };
}

const sum = (facet: FacetCounts) => facet.buckets.reduce((s, b) => s + b.count, 0) + facet.unknown + (facet.kind === 'value' ? facet.other : 0);

describeEngines(
  'ListingStore facets conformance',
  function (engine) {
    this.timeout(60_000);
    const listings = makeListings({ count: 600, seed: 23 });
    const store = storeHolding(engine, 'facets', listings);

    const cases: { label: string; filter: ListingFilter; scope?: Scope; grouped?: boolean }[] = [
      { label: 'no filter', filter: {} },
      { label: 'a department', filter: { department: '75' } },
      { label: 'every facet filtered', filter: { types: ['maison'], roomsMin: 3, dpe: ['C', 'D'], priceMin: 150_000, priceMax: 800_000, surfaceMin: 40 } },
      { label: 'rents: the rent ranges', filter: { transaction: 'location', priceMax: 2_500 } },
      { label: 'a word', filter: { words: ['lumineux'], dpe: ['A', 'B', 'C'] } },
      { label: 'a site filter, ungrouped', filter: { types: ['appartement'] }, scope: { enteredFrom: 0, eligibleSites: [FIXTURE_SITES[1]] }, grouped: false },
      { label: 'a site filter, grouped', filter: {}, scope: { enteredFrom: 0, eligibleSites: [FIXTURE_SITES[2], FIXTURE_SITES[0]] } },
    ];

    for (const { label, filter, scope = ALL, grouped = true } of cases) {
      it(`${label}: each facet counts the query without its own filter; total is the whole query`, async () => {
        const result = await store().facets({ filter, scope, grouped, facets: FACET_NAMES });
        const total = listings.filter((l) => visibleInSearch(l, scope, grouped) && matchesFilter(l, filter)).length;
        expect(result.total).to.equal(total);
        for (const name of FACET_NAMES) {
          const facetListings = counted(listings, filter, scope, grouped, name);
          expect(result.facets[name], name).to.deep.equal(expectedFacet(facetListings, filter, name));
          expect(sum(result.facets[name]!), `${name} adds up`).to.equal(facetListings.length);
          const ownless = OWN[name].every((field) => filter[field] === undefined) && (name !== 'source' || scope.eligibleSites === null);
          if (ownless) expect(sum(result.facets[name]!), `${name} adds up to total`).to.equal(total);
        }
      });
    }

    it('only the facets asked are counted', async () => {
      const result = await store().facets({ filter: {}, scope: ALL, grouped: true, facets: ['dpe'] });
      expect(Object.keys(result.facets)).to.deep.equal(['dpe']);
    });
  },
  CONFORMANCE_ENGINES,
);
