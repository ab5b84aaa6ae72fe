/**
 * Exact map totals of the SQLite store from the in-memory copy of ix_map (map/points-in-memory.ts).
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import type { BoundingBox } from '../../../src/core/query/query.js';
import { makeListings, prng } from '../../support/fixtures.js';
import { inBox } from '../../support/oracle.js';
import { MapPoints, MapPointsCache } from '../../../src/adapters/sqlite-listings/map/points-in-memory.js';
import { storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: exact map totals from the in-memory copy of ix_map (map/points-in-memory.ts)', () => {
  const visible = (listings: StoredListing[]) => listings.map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
  const listings = visible(makeListings({ count: 400, seed: 33 }));
  const mapTotal = (store: SqliteListingStore, bbox: BoundingBox, enteredFrom = 0) =>
    store.map({ filter: {}, scope: { enteredFrom, eligibleSites: null }, grouped: true, bbox, limit: 5 }).then((r) => r.total);
  const expectedTotal = (all: StoredListing[], bbox: BoundingBox, enteredFrom = 0) =>
    all.filter((l) => inBox(l, bbox) && l.catalogue_entered_at >= enteredFrom).length;

  it('agrees with SQL and with the listings over random boxes, inclusive edges, access dates and the antimeridian', async () => {
    const { file, store: inMemory } = await storeHolding('mc', listings);
    await inMemory.warmUp();
    const bySql = new SqliteListingStore(file, { mapCountsInMemory: false });
    const random = prng(5);
    const coordinate = (i: number) => listings[Math.floor(random() * listings.length)].content[i ? 'longitude' : 'latitude']!;
    const entered = [0, ...listings.slice(0, 6).map((l) => l.catalogue_entered_at)];
    let nonEmpty = 0;
    for (let round = 0; round < 300; round++) {
      // Edges on listings' own coordinates half the time (the bounds are inclusive), anywhere otherwise.
      const edge = (i: number, spread: number) => (random() < 0.5 ? coordinate(i) : coordinate(i) + (random() - 0.5) * spread);
      const [a, b] = [edge(0, 4), edge(0, 4)].map((x) => Math.max(-90, Math.min(90, x)));
      const [c, d] = [edge(1, 8), edge(1, 8)].map((x) => Math.max(-180, Math.min(180, x)));
      // West above east half the time: a box across the antimeridian.
      const bbox = { south: Math.min(a, b), north: Math.max(a, b), west: c, east: d };
      const from = entered[round % entered.length];
      const expected = expectedTotal(listings, bbox, from);
      if (expected > 0) nonEmpty++;
      expect(await mapTotal(inMemory, bbox, from), JSON.stringify({ bbox, from })).to.equal(expected);
      expect(await mapTotal(bySql, bbox, from)).to.equal(expected);
    }
    expect(nonEmpty).to.be.greaterThan(100);
    await bySql.close();
    await inMemory.close();
  });

  it('adds up whole cells exactly: a grid of 20 000 points against a brute-force count', () => {
    const random = prng(9);
    const n = 20_000;
    const [lat, lon, entered] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
    for (let i = 0; i < n; i++) {
      // Dense clusters (cities) and a sparse spread, on a 0.001 degree grid so points share coordinates.
      const city = i % 3 === 0;
      lat[i] = Math.round((city ? 48.8 + random() * 0.2 : 42 + random() * 9) * 1000) / 1000;
      lon[i] = Math.round((city ? 2.3 + random() * 0.2 : -4 + random() * 12) * 1000) / 1000;
      entered[i] = 1_000 + Math.floor(random() * 100);
    }
    const points = MapPoints.onGrid({ lat, lon, enteredAt: entered, price: new Float64Array(n), rowid: new Float64Array(n) });
    for (let round = 0; round < 400; round++) {
      const at = Math.floor(random() * n);
      const span = round % 2 === 0 ? 0.3 : 8;
      const south = round % 5 === 0 ? lat[at] : lat[at] - random() * span;
      const west = round % 7 === 0 ? lon[at] : lon[at] - random() * span;
      const bbox = { south, west, north: south + random() * span, east: west + random() * span * 1.5 };
      const from = round % 3 === 0 ? 0 : 1_000 + Math.floor(random() * 100);
      let expected = 0;
      for (let i = 0; i < n; i++) {
        if (lat[i] >= bbox.south && lat[i] <= bbox.north && lon[i] >= bbox.west && lon[i] <= bbox.east && entered[i] >= from) expected++;
      }
      expect(points.count(bbox, from), JSON.stringify({ bbox, from })).to.equal(expected);
    }
    expect(points.count({ south: -90, west: -180, north: 90, east: 180 }, 0)).to.equal(n);
  });

  it('never counts a stale copy: a write of another connection or of its own is in the next total', async () => {
    const { file, store: api } = await storeHolding('mc', listings);
    await api.warmUp();
    const bbox = { south: -90, west: -180, north: 90, east: 180 };
    const all = listings.filter((l) => l.content.latitude !== null && l.content.longitude !== null).length;
    expect(await mapTotal(api, bbox)).to.equal(all);
    const indexer = new SqliteListingStore(file);
    const [first, second] = listings.filter((l) => l.content.latitude !== null);
    await indexer.upsertMany([{ ...first, status: 'vendue', left_market_at: first.updated_at }]);
    expect(await mapTotal(api, bbox)).to.equal(all - 1);
    await api.upsertMany([{ ...second, content: { ...second.content, latitude: null, longitude: null } }]);
    expect(await mapTotal(api, bbox)).to.equal(all - 2);
    await indexer.close();
    await api.close();
  });

  it('reads the copy in slices, again once the store changed and the re-read interval has passed, SQL in between', async () => {
    const { file, store } = await storeHolding('mc', listings);
    // Slices of 50 rows: the read spans several turns of the event loop.
    const cache = new MapPointsCache(store.database, 1_000, 50);
    const bbox = { south: -90, west: -180, north: 90, east: 180 };
    expect(cache.current(0), 'no copy yet: the read starts').to.equal(null);
    await cache.settled();
    const first = cache.current(10)!;
    expect(first.size).to.equal(expectedTotal(listings, bbox));
    expect(first.count(bbox, 0)).to.equal(expectedTotal(listings, bbox));
    expect(cache.current(20)).to.equal(first);
    const indexer = new SqliteListingStore(file);
    const moved = listings.find((l) => l.content.latitude !== null)!;
    await indexer.upsertMany([{ ...moved, status: 'retiree', left_market_at: moved.updated_at }]);
    expect(cache.current(500), 'stale, and the last read started less than 1 s ago').to.equal(null);
    await cache.settled();
    expect(cache.current(600)).to.equal(null);
    expect(cache.current(1_000), 'stale: a new read starts').to.equal(null);
    await cache.settled();
    const second = cache.current(1_001)!;
    expect(second).to.not.equal(first);
    expect(second.count(bbox, 0)).to.equal(expectedTotal(listings, bbox) - 1);
    // A read during which another connection commits is thrown away: its slices mix two states.
    const other = new Database(file);
    other.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('test_touch', String(Math.random()));
    expect(cache.current(2_001)).to.equal(null);
    other.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('test_touch', String(Math.random()));
    await cache.settled();
    expect(cache.current(2_002), 'the store changed while it was read').to.equal(null);
    other.close();
    await indexer.close();
    await store.close();
  });
});
