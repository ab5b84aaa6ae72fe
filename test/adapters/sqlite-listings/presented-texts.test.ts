/**
 * Precomputed Annonce and map point texts of the SQLite store (public_json, map_json): served while
 * current, computed from the documents otherwise, written again by reindex.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { annonceJson, presentAnnonce, presentMapPoint } from '../../../src/core/model/present.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import type { MapResult } from '../../../src/core/ports/listing-reader.js';
import { mapPointsOf } from '../../support/map-points.js';
import type { Scope } from '../../../src/core/query/query.js';
import { makeListings } from '../../support/fixtures.js';
import { toSchema4Layout, toWholeContentDocs } from '../../support/schema4-layout.js';
import { newStoreFile } from '../../support/sqlite-store-files.js';

describe('SQLite store: precomputed Annonce and map point texts (public_json, map_json)', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 120, seed: 5 });
  const stored = new Map(listings.map((l) => [l.id, l]));

  async function firstPage(store: SqliteListingStore): Promise<StoredListing[]> {
    return (await store.search({ filter: {}, scope: ALL, grouped: false, sort: 'recent', pageSize: 50, page: 1, after: null })).items;
  }

  function expectPresentedLikeStored(items: StoredListing[]): void {
    expect(items).to.have.length(50);
    for (const item of items) expect(JSON.parse(String(annonceJson(item)))).to.deep.equal(presentAnnonce(stored.get(item.id)!));
  }

  /** Map answers of the whole world, through both plans (grouped: covering index; all listings: R*Tree). */
  async function mapAnswers(store: SqliteListingStore): Promise<MapResult[]> {
    const world = { south: -90, west: -180, north: 90, east: 180 };
    const grouped = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: world, limit: 2000 });
    const all = await store.map({ filter: {}, scope: ALL, grouped: false, bbox: world, limit: 2000 });
    expect(all.count).to.be.greaterThan(grouped.count);
    return [grouped, all];
  }

  const pointIds = (answer: MapResult) => mapPointsOf(answer).map((point) => `${point.source}:${point.reference}`);

  function expectMapPresentedLikeStored(answers: MapResult[]): void {
    for (const answer of answers) {
      const points = mapPointsOf(answer);
      expect(points).to.have.length(answer.count);
      for (const point of points) {
        const id = `${point.source}:${point.reference}`;
        expect(point, id).to.deep.equal(presentMapPoint(stored.get(id)!));
      }
    }
  }

  async function loadedStore(): Promise<string> {
    const file = newStoreFile('pj');
    const store = new SqliteListingStore(file);
    await store.upsertMany(listings);
    await store.close();
    return file;
  }

  /** After reindex, pages come from the texts again, and they present each listing as stored. */
  async function expectServedFromTexts(store: SqliteListingStore): Promise<void> {
    const items = await firstPage(store);
    expect(items.every((item) => Buffer.isBuffer(item.public_json))).to.equal(true);
    expectPresentedLikeStored(items);
    const answers = await mapAnswers(store);
    expect(answers.every((answer) => answer.texts.every((text) => Buffer.isBuffer(text)))).to.equal(true);
    expectMapPresentedLikeStored(answers);
  }

  it('serves pages from the texts written at index time', async () => {
    const store = new SqliteListingStore(await loadedStore());
    await expectServedFromTexts(store);
    await store.close();
  });

  it('texts of another presenter version are not served until reindex writes them again', async () => {
    const file = await loadedStore();
    const db = new Database(file);
    // As older code wrote them: whole documents, and Annonce texts that are not this presenter's.
    toWholeContentDocs(db);
    db.prepare("UPDATE meta SET value = '0' WHERE key = 'public_json_version'").run();
    db.prepare('UPDATE listing_annonces SET public_json = \'{"stale":true}\'').run();
    db.prepare('UPDATE listings SET map_json = \'{"stale":true}\'').run();
    db.close();
    const store = new SqliteListingStore(file);
    const before = await firstPage(store);
    expect(before.some((item) => item.public_json !== undefined)).to.equal(false);
    expectPresentedLikeStored(before);
    const answersBefore = await mapAnswers(store);
    expect(answersBefore.some((answer) => answer.texts.some((text) => Buffer.isBuffer(text)))).to.equal(false);
    expectMapPresentedLikeStored(answersBefore);
    store.rebuildIndexes();
    await expectServedFromTexts(store);
    await store.close();
  });

  it("joins the points' texts in SQL, and reads rows when some point has no text", async () => {
    const file = await loadedStore();
    const store = new SqliteListingStore(file);
    const world = { south: -90, west: -180, north: 90, east: 180 };
    const joined = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: world, limit: 2000 });
    // One text for the box, holding its `count` points.
    expect(joined.texts).to.have.length(1);
    expect(joined.count).to.equal(pointIds(joined).length).and.to.be.greaterThan(10);
    expectMapPresentedLikeStored([joined]);
    // Rows whose text is missing (written while the texts were stale): every point then comes from its row.
    const other = new Database(file);
    other.prepare('UPDATE listings SET map_json = NULL WHERE rowid % 3 = 0').run();
    other.close();
    const byRows = await store.map({ filter: {}, scope: ALL, grouped: true, bbox: world, limit: 2000 });
    expect(byRows.texts).to.have.length(byRows.count);
    expect(byRows.total).to.equal(joined.total);
    expect(pointIds(byRows).sort()).to.deep.equal(pointIds(joined).sort());
    // The points without a text are presented from their columns.
    expect(byRows.texts.some((text) => typeof text === 'string')).to.equal(true);
    expectMapPresentedLikeStored([byRows]);
    await store.close();
  });

  it('a store made before the column existed gets it, and computes the texts until reindex', async () => {
    const file = await loadedStore();
    const db = new Database(file);
    // As a store of the time before the precomputed texts: schema 4's layout, without public_json and map_json.
    toSchema4Layout(db, { withPublicJson: false });
    db.exec("DROP INDEX ix_map_points; ALTER TABLE listings DROP COLUMN map_json; DELETE FROM meta WHERE key = 'public_json_version'");
    db.close();
    const store = new SqliteListingStore(file);
    // The index added by newer code is not built when a store holding listings is opened (minutes at 1M): reindex builds it.
    const hasPointsIndex = () => new Database(file, { readonly: true }).prepare("SELECT 1 FROM sqlite_master WHERE name = 'ix_map_points'").get() !== undefined;
    expect(hasPointsIndex()).to.equal(false);
    expectPresentedLikeStored(await firstPage(store));
    expect((await firstPage(store)).some((item) => item.public_json !== undefined)).to.equal(false);
    expectMapPresentedLikeStored(await mapAnswers(store));
    store.rebuildIndexes();
    expect(hasPointsIndex()).to.equal(true);
    await expectServedFromTexts(store);
    await store.close();
  });
});
