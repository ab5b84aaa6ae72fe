/**
 * GET /annonces/map on SQLite answers a repeated box from the kept answer only while the store is
 * unchanged: a listing written by the indexer (another connection) or through the service's own
 * connection is in the next answer to the same box.
 */
import { expect } from 'chai';
import path from 'node:path';
import { startTestApp, type TestApp } from '../../support/app.js';
import { makeListings } from '../../support/fixtures.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import type { StoredListing } from '../../../src/core/model/stored.js';

describe('map answers kept while the store is unchanged (SQLite)', () => {
  const shown = (listings: StoredListing[]) => listings.map((l) => ({ ...l, status: 'active' as const, has_photos: true, group_sites_ahead: [] }));
  const [first, ...rest] = shown(makeListings({ count: 120, seed: 12 }).filter((l) => l.content.latitude !== null));
  let app: TestApp;
  let key: string;
  const bbox = '-90,-180,90,180';

  before(async () => {
    app = await startTestApp({ listings: rest.slice(0, 60) });
    key = await app.newKey();
  });
  after(async () => {
    await app.close();
  });

  it("gives the same answer to the same box, and the indexer's new listing in the next one", async () => {
    const before = await app.get(`/annonces/map?bbox=${bbox}`, key);
    expect(before.status).to.equal(200);
    const again = await app.get(`/annonces/map?bbox=${bbox}`, key);
    expect(again.body).to.deep.equal(before.body);
    // The indexer writes through a connection of its own.
    const indexer = new SqliteListingStore(path.join(app.dataDir, 'listings.sqlite'));
    await indexer.upsertMany([first]);
    await indexer.close();
    const after = await app.get(`/annonces/map?bbox=${bbox}`, key);
    expect(after.body.total).to.equal(before.body.total + 1);
    expect(after.body.items.map((p: { source: string; reference: string }) => `${p.source}:${p.reference}`)).to.include(first.id);
  });

  it("has a write through the service's own connection in the next answer too", async () => {
    const before = await app.get(`/annonces/map?bbox=${bbox}`, key);
    await app.service.listingStore.upsertMany(rest.slice(60, 62));
    const after = await app.get(`/annonces/map?bbox=${bbox}`, key);
    expect(after.body.total).to.equal(before.body.total + 2);
  });
});
