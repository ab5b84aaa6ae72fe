/**
 * The SQLite store's clusters of the default map from the points in memory (map/clusters-in-memory.ts): the
 * same cells as its one-statement path (map/clusters-sql.ts, itself checked against the brute-force
 * oracle in the conformance suite), and the exact median by selection.
 */
import { expect } from 'chai';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { medianInPlace } from '../../../src/adapters/sqlite-listings/map/clusters-in-memory.js';
import type { ClustersQuery, ClustersResult } from '../../../src/core/query/aggregates.js';
import { quantileOfSorted } from '../../../src/core/query/aggregates.js';
import { prng } from '../../support/fixtures.js';
import { aggregateListings } from '../../support/aggregates-oracle.js';
import { storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: clusters of the default map from the points in memory (map/clusters-in-memory.ts)', () => {
  // Active and shown, some without a price, so that the cells mix priced and unpriced listings.
  const listings = aggregateListings(1_500, 41).map((l, i) => ({
    ...l,
    status: 'active' as const,
    has_photos: true,
    group_sites_ahead: [],
    content: i % 9 === 0 ? { ...l.content, price: null } : l.content,
  }));

  /** Cells with the centroid rounded: the two paths add the coordinates in different orders. */
  const comparable = (result: ClustersResult) => ({
    total: result.total,
    cells: result.cells.map((cell) => ({ ...cell, lat: cell.lat.toFixed(9), lon: cell.lon.toFixed(9) })),
  });

  it('gives the SQL path cells over random boxes and zooms, access dates and the antimeridian', async () => {
    const { file, store: inMemory } = await storeHolding('mcl', listings);
    await inMemory.warmUp();
    const bySql = new SqliteListingStore(file, { mapCountsInMemory: false });
    const random = prng(8);
    const entered = [0, ...listings.slice(0, 4).map((l) => l.catalogue_entered_at)];
    let withLone = 0;
    let withMedianOfEven = 0;
    for (let round = 0; round < 120; round++) {
      const zoom = [0, 1, 3, 5, 7, 9, 12][round % 7];
      const south = 41 + random() * 6;
      const west = round % 6 === 0 ? 170 + random() * 9 : -5 + random() * 9;
      const east = round % 6 === 0 ? -180 + random() * 9 : west + random() * (zoom >= 9 ? 0.8 : 9);
      const query: ClustersQuery = {
        filter: {},
        scope: { enteredFrom: entered[round % entered.length], eligibleSites: null },
        grouped: true,
        bbox: { south, north: south + random() * (zoom >= 9 ? 0.5 : 6), west, east },
        zoom,
      };
      const [memory, sql] = [await inMemory.clusters(query), await bySql.clusters(query)];
      expect(comparable(memory), JSON.stringify(query)).to.deep.equal(comparable(sql));
      withLone += memory.cells.filter((cell) => cell.id !== null).length;
      withMedianOfEven += memory.cells.filter((cell) => cell.count > 1 && cell.count % 2 === 0).length;
    }
    // The rounds reached lone listings and even counts (a median between two prices).
    expect(withLone).to.be.greaterThan(20);
    expect(withMedianOfEven).to.be.greaterThan(20);
    await bySql.close();
    await inMemory.close();
  });

  it('answers from SQL, with the same cells, while the copy in memory is stale', async () => {
    const { file, store } = await storeHolding('mcl-stale', listings);
    await store.warmUp();
    const query: ClustersQuery = {
      filter: {},
      scope: { enteredFrom: 0, eligibleSites: null },
      grouped: true,
      bbox: { south: 41, north: 51, west: -5, east: 10 },
      zoom: 5,
    };
    const before = await store.clusters(query);
    // Another connection withdraws a listing: the copy is stale, and the cells must count it out.
    const writer = new SqliteListingStore(file);
    const inside = listings.find((l) => l.content.latitude! > 42 && l.content.latitude! < 50 && l.content.longitude! > -4 && l.content.longitude! < 9)!;
    await writer.upsertMany([{ ...inside, status: 'retiree', left_market_at: Date.now() }]);
    const after = await store.clusters(query);
    expect(after.total).to.equal(before.total - 1);
    await writer.close();
    await store.close();
  });

  it('selects the median as the sorted quantile does: odd, even, repeated values, sorted and reversed input', () => {
    const random = prng(3);
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(random() * 60);
      const values = Float64Array.from({ length: n }, () => (round % 3 === 0 ? Math.floor(random() * 5) : Math.round(random() * 1e6)));
      if (round % 5 === 1) values.sort();
      if (round % 5 === 2) values.sort().reverse();
      const expected = quantileOfSorted(values.slice().sort(), 0.5);
      expect(medianInPlace(values), JSON.stringify(Array.from(values))).to.equal(expected);
    }
    expect(medianInPlace(new Float64Array(0))).to.equal(null);
  });
});
