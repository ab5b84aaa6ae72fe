/**
 * Narrow rows of the SQLite store (schema 5: the texts in listing_texts and listing_annonces), and
 * the conversion of a store of schema 4 when it is opened.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { annonceJson } from '../../../src/core/model/present.js';
import type { StoredListing } from '../../../src/core/model/stored.js';
import type { Scope } from '../../../src/core/query/query.js';
import { makeListings } from '../../support/fixtures.js';
import { SCHEMA_VERSION } from '../../../src/adapters/sqlite-listings/schema/tables.js';
import { toSchema4Layout } from '../../support/schema4-layout.js';
import { storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: narrow rows (schema 5: the texts in listing_texts)', () => {
  const ALL: Scope = { enteredFrom: 0, eligibleSites: null };
  const listings = makeListings({ count: 150, seed: 41 });
  const columnsOf = (db: Database.Database, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

  /** What a client sees of the store: pages (texts included), a map, full-text pages, details, the feed. */
  async function answers(store: SqliteListingStore) {
    const page = async (filter: object, grouped: boolean) =>
      (await store.search({ filter, scope: ALL, grouped, sort: 'recent', pageSize: 40, page: 1, after: null })).items.map((item) => String(annonceJson(item)));
    const word = listings[3].content.title!.split(' ')[1];
    const world = { south: -90, west: -180, north: 90, east: 180 };
    const map = await store.map({ filter: {}, scope: ALL, grouped: false, bbox: world, limit: 2000 });
    return {
      page: await page({}, false),
      grouped: await page({}, true),
      text: await page({ words: [word] }, false),
      textCount: (await store.search({ filter: { words: [word] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 200, page: 1, after: null })).items
        .length,
      map: map.texts.map(String).join(','),
      details: await Promise.all(listings.slice(0, 20).map(async (l) => String(annonceJson((await store.get(l.id))!)))),
      feed: (await store.feed({ filter: {}, scope: ALL, changedUntil: Number.MAX_SAFE_INTEGER, pageSize: 200, after: null })).items.map((item) => item.id),
    };
  }

  it('keeps the texts out of the listings table, and full text follows their writes', async () => {
    const { file, store } = await storeHolding('nr', listings);
    const db = new Database(file, { readonly: true });
    expect(columnsOf(db, 'listings')).to.not.include.members(['doc']).and.not.include('title').and.not.include('public_json');
    expect(columnsOf(db, 'listing_texts')).to.deep.equal(['rowid', 'doc', 'title', 'description']);
    expect(columnsOf(db, 'listing_annonces')).to.deep.equal(['rowid', 'public_json']);
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT count(*) AS n FROM listing_texts')).to.equal(listings.length);
    expect(count('SELECT count(*) AS n FROM listings l JOIN listing_texts t ON t.rowid = l.rowid JOIN listing_annonces a ON a.rowid = l.rowid')).to.equal(
      listings.length,
    );
    db.close();
    // A new title is found by its words, the old one no longer.
    const [first] = listings;
    await store.upsertMany([{ ...first, content: { ...first.content, title: 'Zanzibarite lumineuse' } }]);
    const find = async (word: string) =>
      (await store.search({ filter: { words: [word] }, scope: ALL, grouped: false, sort: 'recent', pageSize: 10, page: 1, after: null })).items.map(
        (l) => l.id,
      );
    expect(await find('zanzibarite')).to.deep.equal([first.id]);
    expect(await find(first.content.title!.split(' ')[1])).to.not.include(first.id);
    await store.close();
  });

  it('reads the Annonce texts of the rows a sorted page returns, not of every row it sorted or skipped', async () => {
    const titled = listings.map((l, i) => ({ ...l, content: { ...l.content, title: `Grenier ${i}` } }));
    const wide = await storeHolding('nr', titled);
    const sorted = await storeHolding('nr', titled, { textPlan: 'text-first' });
    const query = { filter: { words: ['grenier'] }, scope: ALL, grouped: false, sort: 'price_asc' as const, pageSize: 10, page: 4, after: null };
    // Every read of listing_annonces goes through a counting function: the table behind a view of
    // the same name (a TEMP view: this connection only), so the store's own SQL is what is counted.
    let reads = 0;
    const db = sorted.store.database;
    db.function('counted_read', (text: unknown) => {
      reads++;
      return text;
    });
    db.exec(`ALTER TABLE listing_annonces RENAME TO listing_annonces_kept;
      CREATE TEMP VIEW listing_annonces AS SELECT rowid AS rowid, counted_read(public_json) AS public_json FROM listing_annonces_kept`);
    const page = await sorted.store.search(query);
    // The same page as a store that reads its texts the ordinary way: nothing but the reads changed.
    expect(page.items.map((item) => String(annonceJson(item)))).to.deep.equal((await wide.store.search(query)).items.map((item) => String(annonceJson(item))));
    expect(page.items).to.have.length(10);
    // FTS5 first, then a sort of its 150 matches: the page's rows and the one that tells hasMore.
    expect(reads).to.equal(11);
    await sorted.store.close();
    await wide.store.close();
  });

  it('gives the listings of search and feed pages whole: the fields a page did not read come from their rows when asked', async () => {
    const { store } = await storeHolding('nr', listings);
    const fields = (l: StoredListing) => ({
      id: l.id,
      content: l.content,
      completed_from: l.completed_from,
      status: l.status,
      catalogue_entered_at: l.catalogue_entered_at,
      updated_at: l.updated_at,
      published_at: l.published_at,
      changed_at: l.changed_at,
      change_seq: l.change_seq,
      left_market_at: l.left_market_at,
      has_photos: l.has_photos,
      dedup_key: l.dedup_key,
      group_sites_ahead: l.group_sites_ahead,
      group_members: l.group_members,
      price_points: l.price_points,
      content_hash: l.content_hash,
    });
    for (const sort of ['recent', 'price_asc', 'surface_desc'] as const) {
      const page = await store.search({ filter: {}, scope: ALL, grouped: false, sort, pageSize: 30, page: 2, after: null });
      expect(page.items).to.have.length(30);
      for (const item of page.items) {
        expect(item.public_json, 'served from its precomputed text').to.be.instanceOf(Buffer);
        expect(fields(item)).to.deep.equal(fields((await store.get(item.id))!));
      }
    }
    const feed = await store.feed({ filter: {}, scope: ALL, changedUntil: Number.MAX_SAFE_INTEGER, pageSize: 40, after: null });
    const next = await store.feed({ filter: {}, scope: ALL, changedUntil: Number.MAX_SAFE_INTEGER, pageSize: 40, after: feed.last });
    for (const item of [...feed.items, ...next.items]) {
      expect(item.public_json, 'served from its precomputed text').to.be.instanceOf(Buffer);
      expect(fields(item)).to.deep.equal(fields((await store.get(item.id))!));
    }
    // The feed's page, from ix_feed's entries alone: no listing row read (the texts' table is read by rowid).
    const plan = (
      store.database
        .prepare(`EXPLAIN QUERY PLAN SELECT l.rowid AS rowid, l.id AS id, l.changed_at AS changed_at, l.change_seq AS change_seq
      FROM listings l WHERE l.active = 1 AND l.changed_at <= ? ORDER BY l.changed_at, l.change_seq LIMIT 41`)
        .all(0) as { detail: string }[]
    ).map((r) => r.detail);
    expect(plan).to.deep.equal(['SEARCH l USING COVERING INDEX ix_feed (changed_at<?)']);
    await store.close();
  });

  it('converts a store of schema 4 (texts in listings) when it is opened, and answers as before', async () => {
    const { file, store } = await storeHolding('nr', listings);
    const before = await answers(store);
    expect(before.textCount).to.be.greaterThan(0);
    await store.close();
    const db = new Database(file);
    const indexesOf = (handle: Database.Database) =>
      handle.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'listings' ORDER BY name").all();
    const indexesBefore = indexesOf(db);
    expect(indexesBefore.length).to.be.greaterThan(15);
    toSchema4Layout(db);
    expect(columnsOf(db, 'listings')).to.include.members(['title', 'description', 'doc', 'public_json']);
    db.close();

    const converted = new SqliteListingStore(file);
    expect(await answers(converted)).to.deep.equal(before);
    await converted.close();
    const check = new Database(file);
    expect(columnsOf(check, 'listings')).to.not.include.members(['doc']).and.not.include('title').and.not.include('description').and.not.include('public_json');
    for (const table of ['listing_texts', 'listing_annonces'])
      expect((check.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n).to.equal(listings.length);
    expect((check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value).to.equal(String(SCHEMA_VERSION));
    check.exec("INSERT INTO listings_fts(listings_fts, rank) VALUES ('integrity-check', 1)");
    // The table was rebuilt: every index it had is there again, and the count's triggers follow it.
    expect(indexesOf(check)).to.deep.equal(indexesBefore);
    expect((check.prepare('SELECT n FROM listing_count').get() as { n: number }).n).to.equal(listings.length);
    check.close();
    // Opened again: nothing left to convert, the same answers.
    const reopened = new SqliteListingStore(file);
    expect(await answers(reopened)).to.deep.equal(before);
    await reopened.close();
  });
});
