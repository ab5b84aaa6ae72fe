/**
 * Conformance of the polygon and radius filters (src/core/query/geo.ts) on every engine: search,
 * map and clusters keep exactly the listings of the area. Elasticsearch draws the areas with
 * Lucene's own geometry, so its agreeing with the oracle (the shared JavaScript geometry) checks that
 * geometry too: a concave polygon, one across the antimeridian, one near the north pole, circles in
 * France, across the antimeridian and over the pole. Then `sort=distance`: nearest first, ties by id,
 * by keyset pages and by page number.
 */
import { expect } from 'chai';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { Scope, SortName } from '../../src/core/query/query.js';
import { distanceMeters, type GeoArea, type LatLon } from '../../src/core/query/geo.js';
import type { ListingFilter, SearchQuery } from '../../src/core/query/query.js';
import { makeListings, prng } from '../support/fixtures.js';
import { CONFORMANCE_ENGINES, describeEngines, storeHolding } from '../support/engines.js';
import { expectedSearch, matchesFilter, visibleInSearch } from '../support/oracle.js';

const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
const WORLD = { south: -90, west: -180, north: 90, east: 180 };

/** Listings in France, and some moved near the north pole and across the antimeridian, on a grid of 0.001 degree. */
function areaListings(): StoredListing[] {
  const random = prng(57);
  const grid = (value: number) => Math.round(value * 1000) / 1000;
  return makeListings({ count: 500, seed: 31 }).map((listing, i) => {
    if (listing.content.latitude === null) return listing;
    if (i % 9 === 2) return { ...listing, content: { ...listing.content, latitude: grid(89.4 + random() * 0.6), longitude: grid(-180 + random() * 360) } };
    if (i % 9 === 5) {
      const lon = grid(178 + random() * 4);
      return { ...listing, content: { ...listing.content, latitude: grid(-23 + random() * 8), longitude: lon > 180 ? grid(lon - 360) : lon } };
    }
    return listing;
  });
}

const ring = (...points: [number, number][]): LatLon[] => points.map(([lat, lon]) => ({ lat, lon }));

const AREAS: [string, GeoArea][] = [
  // Concave: a Paris "C" whose notch leaves out the eastern listings.
  [
    'concave Paris polygon',
    {
      kind: 'polygon',
      vertices: ring(
        [48.9005, 2.2005],
        [48.9005, 2.3505],
        [48.8705, 2.3505],
        [48.8705, 2.2805],
        [48.8505, 2.2805],
        [48.8505, 2.3505],
        [48.8205, 2.3505],
        [48.8205, 2.2005],
      ),
    },
  ],
  [
    'polygon across the antimeridian',
    { kind: 'polygon', vertices: ring([-16.0005, 179.0005], [-16.0005, -178.9995], [-21.9995, -178.9995], [-21.9995, 179.0005]) },
  ],
  ['triangle near the north pole', { kind: 'polygon', vertices: ring([89.5005, 0.0005], [89.9995, 60.0005], [89.5005, 120.0005]) }],
  ['5 km around Paris', { kind: 'circle', centre: { lat: 48.8566, lon: 2.3522 }, radiusKm: 5 }],
  ['100 km around Lyon', { kind: 'circle', centre: { lat: 45.76, lon: 4.84 }, radiusKm: 100 }],
  ['50 km across the antimeridian', { kind: 'circle', centre: { lat: -18.1, lon: 179.9 }, radiusKm: 50 }],
  ['60 km around the north pole', { kind: 'circle', centre: { lat: 89.9, lon: 45 }, radiusKm: 60 }],
];

describeEngines(
  'ListingStore areas conformance',
  function (engine) {
    this.timeout(60_000);
    const listings = areaListings();
    const store = storeHolding(engine, 'areas', listings);

    async function searchAll(area: GeoArea, sort: SortName = 'recent', pageSize = 50): Promise<string[]> {
      const ids: string[] = [];
      for (let after = null as (string | number)[] | null, guard = 0; guard < 100; guard++) {
        const page = await store().search({ filter: { area }, scope: ALL, grouped: true, sort, pageSize, page: 1, after });
        ids.push(...page.items.map((l) => l.id));
        if (!page.hasMore) return ids;
        after = page.last;
      }
      throw new Error('pagination did not end');
    }

    for (const [label, area] of AREAS) {
      it(`${label}: search, map and clusters keep exactly the listings of the area`, async () => {
        const expected = expectedSearch(listings, { area }, ALL, true, 'recent');
        const everyListing = listings.filter((l) => visibleInSearch(l, ALL, true)).length;
        expect(expected.length, 'the area holds some listings, not all').to.be.within(3, everyListing - 1);
        expect(await searchAll(area)).to.deep.equal(expected);
        const map = await store().map({ filter: { area }, scope: ALL, grouped: true, bbox: WORLD, limit: 2000 });
        expect(map.total).to.equal(expected.length);
        const ungrouped = listings.filter((l) => visibleInSearch(l, ALL, false) && matchesFilter(l, { area }));
        const clusters = await store().clusters({ filter: { area }, scope: ALL, grouped: false, bbox: WORLD, zoom: 3 });
        expect(clusters.total).to.equal(ungrouped.length);
      });
    }

    it('every sort in an area: keyset and page-number pages as the oracle, with a type filter too', async () => {
      const area = AREAS[3][1];
      for (const sort of ['recent', 'price_asc', 'price_desc', 'surface_desc', 'pricem2_asc'] as SortName[]) {
        expect(await searchAll(area, sort, 5), sort).to.deep.equal(expectedSearch(listings, { area }, ALL, true, sort));
        const filter: ListingFilter = { area, types: ['appartement'] };
        const expected = expectedSearch(listings, filter, ALL, true, sort);
        expect(expected.length).to.be.at.least(6);
        const second = await store().search({ filter, scope: ALL, grouped: true, sort, pageSize: 3, page: 2, after: null });
        expect(
          second.items.map((l) => l.id),
          `${sort}, page 2`,
        ).to.deep.equal(expected.slice(3, 6));
      }
    });

    /** The oracle's order: located listings of the filter by distance from the centre, then id. */
    function expectedByDistance(filter: ListingFilter, centre: LatLon): string[] {
      const located = listings.filter(
        (l) => visibleInSearch(l, ALL, true) && matchesFilter(l, filter) && l.content.latitude !== null && l.content.longitude !== null,
      );
      const distance = (l: StoredListing) => distanceMeters(centre, { lat: l.content.latitude!, lon: l.content.longitude! });
      return located.sort((a, b) => distance(a) - distance(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((l) => l.id);
    }

    // Off the 0.001 degree grid of the listings, so no two distinct points are at exactly the same distance.
    const CENTRE = { lat: 48.85637, lon: 2.35219 };
    const distanceCases: [string, ListingFilter, LatLon][] = [
      ['every located listing, from Paris', {}, CENTRE],
      [
        'within 100 km of Lyon, from its centre',
        { area: { kind: 'circle', centre: { lat: 45.76, lon: 4.84 }, radiusKm: 100 } },
        { lat: 45.76013, lon: 4.84027 },
      ],
      ['a word, from the antimeridian', { words: ['lumineux'] }, { lat: -18.10013, lon: 179.90027 }],
      // Hundreds of kilometres from the centre: the nearest are found only in a wide ring.
      ['a Paris polygon, from Lyon', { area: AREAS[0][1] }, { lat: 45.76013, lon: 4.84027 }],
    ];
    for (const [label, filter, centre] of distanceCases) {
      it(`sort by distance, ${label}: nearest first, ties by id, by keyset and by page number`, async () => {
        const expected = expectedByDistance(filter, centre);
        expect(expected.length).to.be.greaterThan(10);
        const base: Omit<SearchQuery, 'page' | 'after'> = { filter, scope: ALL, grouped: true, sort: 'recent', pageSize: 7, distanceFrom: centre };
        const byKeyset: string[] = [];
        for (let after = null as (string | number)[] | null, guard = 0; guard < 200; guard++) {
          const page = await store().search({ ...base, page: 1, after });
          byKeyset.push(...page.items.map((l) => l.id));
          if (!page.hasMore) break;
          after = page.last;
        }
        expect(byKeyset).to.deep.equal(expected);
        const third = await store().search({ ...base, page: 3, after: null });
        expect(third.items.map((l) => l.id)).to.deep.equal(expected.slice(14, 21));
      });
    }
  },
  CONFORMANCE_ENGINES,
);
