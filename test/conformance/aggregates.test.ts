/**
 * Conformance of the aggregate reads (ListingStore.clusters, ListingStore.stats) on every engine,
 * against the brute-force oracle: the cells add up to the map's total and hold exactly the listings
 * of their tile; the statistics count exactly, and their quartiles are exact on SQLite and within
 * the documented rank bound on Elasticsearch.
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BoundingBox, ListingFilter, Scope } from '../../src/core/query/query.js';
import { DAY_MS, QUARTILES, tileX, tileY, type Quartiles, type StatsArea } from '../../src/core/query/aggregates.js';
import { inArea as inGeoArea, type GeoArea } from '../../src/core/query/geo.js';
import { presentMapPoint } from '../../src/core/model/present.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { FIXTURE_SITES } from '../support/fixtures.js';
import { CONFORMANCE_ENGINES, describeEngines, openElasticsearchEngineStore, type Engine } from '../support/engines.js';
import { aggregateListings, exactQuartiles, expectedCells, expectedStats, NOW, withinRankBound } from '../support/aggregates-oracle.js';
import { matchesFilter } from '../support/oracle.js';

const ALL: Scope = { enteredFrom: 0, eligibleSites: null };

async function openStore(engine: Engine): Promise<ListingStore> {
  if (engine !== 'sqlite') return openElasticsearchEngineStore(engine, 'aggregates');
  return new SqliteListingStore(path.join(mkdtempSync(path.join(tmpdir(), 'agg-')), 'listings.sqlite'));
}

function expectQuartiles(engine: Engine, got: Quartiles, values: number[], what: string): void {
  expect(got.count, `${what} count`).to.equal(values.length);
  if (engine === 'sqlite') {
    expect(got, what).to.deep.equal(exactQuartiles(values));
    return;
  }
  const estimates = [got.q1, got.median, got.q3];
  QUARTILES.forEach((q, i) =>
    expect(withinRankBound(values, q, estimates[i]), `${what} q${q}: ${estimates[i]} of ${JSON.stringify(exactQuartiles(values))}`).to.equal(true),
  );
}

describeEngines(
  'ListingStore aggregates conformance',
  function (engine) {
    this.timeout(60_000);
    const listings = aggregateListings(900, 41);
    let store: ListingStore;

    before(async () => {
      store = await openStore(engine);
      await store.upsertMany(listings);
    });
    after(async () => {
      await store?.close();
    });

    describe('clusters', () => {
      const cases: { bbox: BoundingBox; zoom: number; filter?: ListingFilter; scope?: Scope; grouped?: boolean }[] = [
        { bbox: { south: 41, west: -5.5, north: 51.5, east: 10 }, zoom: 0 },
        { bbox: { south: 41, west: -5.5, north: 51.5, east: 10 }, zoom: 5 },
        { bbox: { south: 41, west: -5.5, north: 51.5, east: 10 }, zoom: 6, filter: { transaction: 'vente', types: ['maison'] } },
        { bbox: { south: 48.8, west: 2.2, north: 48.95, east: 2.45 }, zoom: 12 },
        { bbox: { south: 48.8, west: 2.2, north: 48.95, east: 2.45 }, zoom: 16, grouped: false },
        { bbox: { south: 44, west: 3, north: 47, east: 6 }, zoom: 9, scope: { enteredFrom: 0, eligibleSites: FIXTURE_SITES.slice(1, 4) } },
        {
          bbox: { south: 44, west: 3, north: 47, east: 6 },
          zoom: 8,
          filter: { words: ['lumineux'] },
          grouped: false,
          scope: { enteredFrom: 0, eligibleSites: FIXTURE_SITES.slice(0, 2) },
        },
        { bbox: { south: -30, west: 179, north: -10, east: -179 }, zoom: 7 },
      ];
      for (const c of cases) {
        it(`zoom ${c.zoom} ${JSON.stringify(c.bbox)} ${JSON.stringify(c.filter ?? {})} grouped=${c.grouped ?? true}`, async () => {
          const query = { filter: c.filter ?? {}, scope: c.scope ?? ALL, grouped: c.grouped ?? true, bbox: c.bbox, zoom: c.zoom };
          const result = await store.clusters(query);
          const map = await store.map({ ...query, limit: 1 });
          const expected = expectedCells(listings, query.filter, query.scope, query.grouped, c.bbox, c.zoom);
          expect(result.total).to.equal(map.total);
          expect(
            result.cells.reduce((sum, cell) => sum + cell.count, 0),
            'sum of the counts',
          ).to.equal(map.total);
          expect(result.cells.map((cell) => `${cell.x}/${cell.y}`).sort()).to.deep.equal([...expected.keys()].sort());
          expect(map.total).to.be.greaterThan(0);
          for (const cell of result.cells) {
            const want = expected.get(`${cell.x}/${cell.y}`)!;
            expect(cell.zoom).to.equal(c.zoom);
            expect(cell.count, `${cell.x}/${cell.y}`).to.equal(want.count);
            expect(cell.lat).to.be.closeTo(want.lat, 1e-6);
            expect(cell.lon).to.be.closeTo(want.lon, 1e-6);
            expect(tileX(cell.lon, c.zoom)).to.equal(cell.x);
            expect(tileY(cell.lat, c.zoom)).to.equal(cell.y);
            expect(cell.priceMin).to.equal(want.priceMin);
            if (engine === 'sqlite') expect(cell.priceMedian).to.equal(exactQuartiles(want.prices).median);
            else expect(withinRankBound(want.prices, 0.5, cell.priceMedian), `median of ${want.prices}`).to.equal(true);
            expect(cell.id).to.equal(want.count === 1 ? want.ids[0] : null);
            expect(cell.bounds, "the box of the cell's listings").to.deep.equal(want.bounds);
            const lone = listings.find((l) => l.id === cell.id);
            expect(cell.point === null ? null : JSON.parse(String(cell.point)), "the lone listing's map point").to.deep.equal(
              lone ? presentMapPoint(lone) : null,
            );
          }
        });
      }
    });

    describe('stats', () => {
      const since = NOW - 90 * DAY_MS;
      const areas: { area: StatsArea; holds: (l: StoredListing) => boolean }[] = [
        { area: { kind: 'department', department: '69' }, holds: (l) => l.content.department === '69' },
        { area: { kind: 'postalCode', postalCode: '75016' }, holds: (l) => l.content.postal_code === '75016' },
        // Paris's own postal codes, and a code it would share with a commune of another name.
        {
          area: { kind: 'commune', insee: '75056', postalCodes: ['75008'], sharedPostalCodes: ['75016', '42000'], cityNames: ['paris'] },
          holds: (l) => l.content.postal_code === '75008' || (l.content.postal_code === '75016' && l.content.city === 'Paris'),
        },
        {
          area: { kind: 'bbox', bbox: { south: 44, west: 3, north: 47, east: 6 } },
          holds: (l) =>
            l.content.latitude !== null && l.content.latitude >= 44 && l.content.latitude <= 47 && l.content.longitude! >= 3 && l.content.longitude! <= 6,
        },
        {
          area: { kind: 'bbox', bbox: { south: -30, west: 179, north: -10, east: -179 } },
          holds: (l) =>
            l.content.latitude !== null &&
            l.content.latitude >= -30 &&
            l.content.latitude <= -10 &&
            (l.content.longitude! >= 179 || l.content.longitude! <= -179),
        },
      ];
      // Polygons and circles (src/core/query/geo.ts), held by the shared geometry.
      const shapes: GeoArea[] = [
        {
          kind: 'polygon',
          vertices: [
            { lat: 44.0005, lon: 3.0005 },
            { lat: 47.0005, lon: 4.5005 },
            { lat: 44.0005, lon: 6.0005 },
          ],
        },
        { kind: 'circle', centre: { lat: 45.76, lon: 4.84 }, radiusKm: 80 },
      ];
      for (const shape of shapes) {
        areas.push({
          area: { kind: 'shape', shape },
          holds: (l) => l.content.latitude !== null && l.content.longitude !== null && inGeoArea(shape, { lat: l.content.latitude, lon: l.content.longitude }),
        });
      }
      const criteria: { types?: string[]; transaction?: 'vente' | 'location'; roomsMin?: number; roomsMax?: number; grouped: boolean; scope: Scope }[] = [
        { grouped: true, scope: ALL },
        { types: ['appartement'], transaction: 'vente', roomsMin: 2, roomsMax: 4, grouped: true, scope: ALL },
        { grouped: false, scope: { enteredFrom: Date.parse('2026-08-20T00:00:00Z'), eligibleSites: FIXTURE_SITES.slice(0, 3) } },
      ];
      for (const { area, holds } of areas) {
        for (const c of criteria) {
          it(`${JSON.stringify(area)} ${JSON.stringify(c)}`, async () => {
            const result = await store.stats({
              area,
              types: c.types,
              transaction: c.transaction,
              roomsMin: c.roomsMin,
              roomsMax: c.roomsMax,
              scope: c.scope,
              grouped: c.grouped,
              withdrawnSince: since,
            });
            const filter: ListingFilter = { types: c.types, transaction: c.transaction, roomsMin: c.roomsMin };
            const inArea = listings.filter(
              (l) => holds(l) && matchesFilter(l, filter) && (c.roomsMax === undefined || (l.content.rooms !== null && l.content.rooms <= c.roomsMax)),
            );
            const want = expectedStats(inArea, c.scope, c.grouped, since);
            expect(result.active.count, 'active').to.equal(want.active.count);
            expect(result.withdrawn.count, 'withdrawn').to.equal(want.withdrawn.count);
            expectQuartiles(engine, result.active.price, want.active.price, 'active price');
            expectQuartiles(engine, result.active.pricePerM2, want.active.pricePerM2, 'active price per m2');
            expectQuartiles(engine, result.withdrawn.price, want.withdrawn.price, 'withdrawn price');
            expectQuartiles(engine, result.withdrawn.pricePerM2, want.withdrawn.pricePerM2, 'withdrawn price per m2');
            expectQuartiles(engine, result.withdrawn.daysOnMarket, want.withdrawn.days, 'days on market');
            expectQuartiles(engine, result.withdrawn.discountPercent, want.withdrawn.discount, 'discount');
          });
        }
      }

      it('has areas with enough listings for the quartiles to mean something', () => {
        const lyon = expectedStats(
          listings.filter((l) => l.content.department === '69'),
          ALL,
          true,
          since,
        );
        expect(lyon.active.count).to.be.greaterThan(50);
        expect(lyon.withdrawn.count).to.be.greaterThan(3);
        expect(lyon.withdrawn.discount.some((d) => d > 0) && lyon.withdrawn.discount.some((d) => d < 0)).to.equal(true);
      });
    });
  },
  CONFORMANCE_ENGINES,
);
