/**
 * Maintenance of a SQLite store: reindex brings older index definitions up to date, and the listing
 * count kept by triggers follows every connection's writes.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { makeListings } from '../../support/fixtures.js';
import { SCHEMA_VERSION } from '../../../src/adapters/sqlite-listings/schema/tables.js';
import { storeHolding } from '../../support/sqlite-store-files.js';

describe('SQLite store: reindex brings older index definitions up to date', () => {
  it('an index of older code (same name, other columns) is built again by reindex, and pages stay the same', async () => {
    const listings = makeListings({ count: 80, seed: 9 });
    const loaded = await storeHolding('ix', listings);
    const { file } = loaded;
    let { store } = loaded;
    const query = {
      filter: { department: listings[0].content.department!, priceMin: 1 },
      scope: { enteredFrom: 0, eligibleSites: null },
      grouped: true,
      sort: 'recent' as const,
      pageSize: 10,
      page: 1,
      after: null,
    };
    const before = (await store.search(query)).items.map((l) => l.id);
    expect(before).to.not.be.empty;
    await store.close();
    // What the first schema had: the sort key and the id only.
    const db = new Database(file);
    db.exec('DROP INDEX ix_main_dept_recent; CREATE INDEX ix_main_dept_recent ON listings(department, updated_at, id) WHERE vis = 2');
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
    db.close();
    const definition = (f: string) => {
      const check = new Database(f, { readonly: true });
      try {
        return {
          sql: (check.prepare("SELECT sql FROM sqlite_master WHERE name = 'ix_main_dept_recent'").get() as { sql: string }).sql,
          version: (check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value,
        };
      } finally {
        check.close();
      }
    };
    store = new SqliteListingStore(file);
    // Opening (the API's start-up) builds nothing.
    expect(definition(file).sql).to.not.include('price');
    store.rebuildIndexes();
    expect(definition(file).version).to.equal(String(SCHEMA_VERSION));
    expect(definition(file).sql).to.include('entered_at, price, type_norm, transaction_type');
    expect((await store.search(query)).items.map((l) => l.id)).to.deep.equal(before);
    await store.close();
  });
});

describe('SQLite store: the listing count kept by triggers (listing_count)', () => {
  const tableCount = (file: string): number => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it('follows inserts of its own connection and of another one, not updates', async () => {
    const listings = makeListings({ count: 50, seed: 31 });
    const { file, store: api } = await storeHolding('lc', listings.slice(0, 30));
    expect(await api.count()).to.equal(30);
    // Ten updates and five new listings.
    await api.upsertMany([...listings.slice(0, 10).map((l) => ({ ...l, change_seq: l.change_seq + 1000 })), ...listings.slice(30, 35)]);
    expect(await api.count()).to.equal(35);
    const indexer = new SqliteListingStore(file);
    await indexer.upsertMany(listings.slice(35));
    expect(await api.count()).to.equal(50);
    expect(await api.count()).to.equal(tableCount(file));
    await indexer.close();
    await api.close();
  });

  it('a file of older code (no count, or inserts made without its triggers) is counted again on open', async () => {
    const listings = makeListings({ count: 40, seed: 32 });
    const { file, store } = await storeHolding('lc', listings.slice(0, 25));
    await store.close();
    // Older code: no triggers, and rows inserted without them (copies of five rows under new ids).
    const db = new Database(file);
    db.exec('DROP TRIGGER listing_count_ai; DROP TRIGGER listing_count_ad');
    const columns = (db.prepare('PRAGMA table_info(listings)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((name) => name !== 'rowid' && name !== 'id');
    db.exec(`INSERT INTO listings (id, ${columns.join(', ')}) SELECT id || '-copy', ${columns.join(', ')} FROM listings ORDER BY rowid LIMIT 5`);
    db.close();
    const reopened = new SqliteListingStore(file);
    expect(await reopened.count()).to.equal(30);
    // From then on the triggers keep it.
    await reopened.upsertMany(listings.slice(25));
    expect(await reopened.count()).to.equal(45);
    expect(await reopened.count()).to.equal(tableCount(file));
    await reopened.close();
    // No count table at all.
    const older = new Database(file);
    older.exec('DROP TRIGGER listing_count_ai; DROP TRIGGER listing_count_ad; DROP TABLE listing_count');
    older.close();
    const migrated = new SqliteListingStore(file);
    expect(await migrated.count()).to.equal(45);
    await migrated.close();
  });
});
