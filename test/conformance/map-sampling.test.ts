/**
 * A capped map covers its box (src/core/query/map-sampling.ts), on every engine: when the box holds
 * more listings than the limit, each cell of the 10 x 10 sampling grid gets a share of the points
 * within 1/limit of its share of the listings, every point is a listing of its cell, none twice, and
 * the same query gives the same points.
 */
import { expect } from 'chai';
import type { BoundingBox, MapQuery, Scope } from '../../src/core/query/query.js';
import { SAMPLING_GRID, samplingCells } from '../../src/core/query/map-sampling.js';
import { makeListings } from '../support/fixtures.js';
import { CONFORMANCE_ENGINES, describeEngines, storeHolding } from '../support/engines.js';
import { inBox, matchesFilter, visibleInSearch } from '../support/oracle.js';
import { mapPointsOf } from '../support/map-points.js';

const ALL: Scope = { enteredFrom: 0, eligibleSites: null };

describeEngines(
  'ListingStore map sampling conformance',
  function (engine) {
    this.timeout(60_000);
    const listings = makeListings({ count: 900, seed: 17 });
    const store = storeHolding(engine, 'sampling', listings);

    const cases: { label: string; bbox: BoundingBox; limit: number; filter?: MapQuery['filter'] }[] = [
      { label: 'France, a few points', bbox: { south: 41, west: -5.5, north: 51.5, east: 10 }, limit: 40 },
      { label: 'Paris, about half', bbox: { south: 48.84, west: 2.25, north: 48.89, east: 2.33 }, limit: 70 },
      { label: 'across the antimeridian, with a filter', bbox: { south: -30, west: 170, north: -10, east: -170 }, limit: 9, filter: { transaction: 'vente' } },
    ];
    for (const { label, bbox, limit, filter = {} } of cases) {
      it(`${label}: each cell's share of points within 1/limit of its share of listings`, async () => {
        const query: MapQuery = { filter, scope: ALL, grouped: true, bbox, limit };
        const inQuery = listings.filter((l) => visibleInSearch(l, ALL, true) && matchesFilter(l, filter) && inBox(l, bbox));
        expect(inQuery.length, 'the box holds more listings than the limit').to.be.greaterThan(limit);
        const result = await store().map(query);
        expect(result.total).to.equal(inQuery.length);
        expect(result.sampling).to.deep.equal({ grid: SAMPLING_GRID });
        const points = mapPointsOf(result);
        expect(points).to.have.length(limit);
        const ids = points.map((p) => `${p.source}:${p.reference}`);
        expect(new Set(ids).size, 'no point twice').to.equal(limit);
        const cells = samplingCells(bbox)!;
        const occupied = cells.filter((cell) => inQuery.some((l) => inBox(l, cell))).length;
        expect(occupied, 'listings in several cells').to.be.greaterThan(1);
        for (const cell of cells) {
          const listed = inQuery.filter((l) => inBox(l, cell)).map((l) => l.id);
          const shown = ids.filter((id) => listed.includes(id));
          const inCell = points.filter((p) => inBox({ content: { latitude: p.latitude, longitude: p.longitude } } as never, cell));
          expect(shown.length, 'every point of the cell is a listing of it').to.equal(inCell.length);
          expect(Math.abs(shown.length / limit - listed.length / inQuery.length), JSON.stringify(cell)).to.be.below(1 / limit + 1e-12);
        }
        expect(mapPointsOf(await store().map(query)), 'stable').to.deep.equal(points);
      });
    }

    it('a box holding no more listings than the limit is not sampled: every listing, no sampling', async () => {
      const bbox = { south: 48.84, west: 2.25, north: 48.89, east: 2.33 };
      const result = await store().map({ filter: {}, scope: ALL, grouped: true, bbox, limit: 2000 });
      expect(result.sampling).to.equal(undefined);
      expect(result.count).to.equal(result.total);
    });
  },
  CONFORMANCE_ENGINES,
);
