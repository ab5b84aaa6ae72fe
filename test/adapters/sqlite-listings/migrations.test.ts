/**
 * The numbered migrations of the SQLite store (schema/migrations.ts): each runs once, in order, and its
 * version is recorded in PRAGMA user_version as soon as it ran, so a step that fails is the first
 * to run at the next open.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { MIGRATIONS, runMigrations, type Migration } from '../../../src/adapters/sqlite-listings/schema/migrations.js';
import { SqliteListingStore } from '../../../src/adapters/sqlite-listings/listing-store.js';
import { makeListings } from '../../support/fixtures.js';
import { newStoreFile } from '../../support/sqlite-store-files.js';

const userVersion = (db: Database.Database) => db.pragma('user_version', { simple: true }) as number;

describe('SQLite store: numbered migrations', () => {
  it('are numbered in order, without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).to.deep.equal(MIGRATIONS.map((_, index) => index + 1));
  });

  it('run the steps above the recorded version, once each, and record the last one', () => {
    const db = new Database(':memory:');
    const ran: string[] = [];
    const steps: Migration[] = [1, 2, 3].map((version) => ({
      version,
      name: `step ${version}`,
      up: () => {
        ran.push(`step ${version}`);
      },
    }));
    db.pragma('user_version = 1');
    expect(runMigrations(db, steps)).to.equal(3);
    expect(ran).to.deep.equal(['step 2', 'step 3']);
    expect(userVersion(db)).to.equal(3);
    expect(runMigrations(db, steps)).to.equal(3);
    expect(ran).to.have.length(2);
    db.close();
  });

  it('keep the version of the steps that ran when one fails: the next run starts at the failed step', () => {
    const db = new Database(':memory:');
    const ran: number[] = [];
    let fail = true;
    const steps: Migration[] = [1, 2, 3].map((version) => ({
      version,
      name: `step ${version}`,
      up: () => {
        if (version === 2 && fail) throw new Error('step 2 failed');
        ran.push(version);
      },
    }));
    expect(() => runMigrations(db, steps)).to.throw('step 2 failed');
    expect(userVersion(db)).to.equal(1);
    fail = false;
    runMigrations(db, steps);
    expect(ran).to.deep.equal([1, 2, 3]);
    expect(userVersion(db)).to.equal(3);
    db.close();
  });

  it('a new store and a store of older code (user_version 0) both end at the last version, with the same answers', async () => {
    const file = newStoreFile('mig');
    const listings = makeListings({ count: 30, seed: 5 });
    const store = new SqliteListingStore(file);
    expect(userVersion(store.database)).to.equal(MIGRATIONS.at(-1)!.version);
    await store.upsertMany(listings);
    const before = (await store.getMany(listings.map((l) => l.id))).size;
    await store.close();
    const db = new Database(file);
    db.pragma('user_version = 0');
    db.close();
    // Every step checks the file first: on a store that has what they add, they change nothing.
    const reopened = new SqliteListingStore(file);
    expect(userVersion(reopened.database)).to.equal(MIGRATIONS.at(-1)!.version);
    expect((await reopened.getMany(listings.map((l) => l.id))).size).to.equal(before);
    expect(await reopened.count()).to.equal(listings.length);
    await reopened.close();
  });

  it('a store made before the absence counts gets their column, 0 for every listing, and keeps its answers', async () => {
    const file = newStoreFile('mig-absent');
    const listings = makeListings({ count: 20, seed: 7 });
    const store = new SqliteListingStore(file);
    await store.upsertMany(listings);
    const before = await store.getMany(listings.map((l) => l.id));
    await store.close();
    const db = new Database(file);
    db.exec('DROP INDEX ix_scope; ALTER TABLE listings DROP COLUMN absent_loads; ALTER TABLE listings DROP COLUMN absent_at');
    db.pragma('user_version = 4');
    db.close();
    const reopened = new SqliteListingStore(file);
    try {
      expect(userVersion(reopened.database)).to.equal(5);
      expect(await reopened.getMany(listings.map((l) => l.id))).to.deep.equal(before);
      const active = listings.find((l) => l.status === 'active')!;
      await reopened.recordAbsences(new Map([[active.id, { loads: 1, at: 5 }]]));
      expect((await reopened.getMany([active.id])).get(active.id)).to.include({ absent_loads: 1, absent_at: 5 });
    } finally {
      await reopened.close();
    }
  });
});
