/**
 * A load into a SQLite store that already holds listings (a daily load) writes in transactions of
 * `liveCommitRows` rows (src/adapters/sqlite-listings/write/commit-groups.ts): another connection, as
 * the API's, sees its listings a commit at a time; a batch that fails leaves whole commits only, and
 * running the load again gives the store of the one-transaction-per-batch path.
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runLoad, type LoadOptions } from '../../indexer/load.js';
import { generateSample } from '../../indexer/sample/generate.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { LOAD_CHECKPOINT_PAGES } from '../../src/adapters/sqlite-listings/write/commit-groups.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import { writeNdjson } from '../support/raw.js';
import { withUnreadableListing } from '../support/unreadable-listing.js';

const sites = loadSites();
const communes = loadCommunes();

describe('a load into a store that holds listings commits every so many rows', function () {
  this.timeout(120_000);
  const clock = Date.now();
  const records = [...generateSample({ count: 4000, seed: 23 })].map((s) => s.record as Record<string, unknown>);
  let dir: string;

  const load = (store: SqliteListingStore, file: string, extra: Partial<LoadOptions> = {}) =>
    runLoad({ files: [file], store, sites, communes, now: () => clock, ...extra });
  const ids = (db: Database.Database) => (db.prepare('SELECT id FROM listings ORDER BY id').all() as { id: string }[]).map((r) => r.id);

  /** A store holding the first 500 records, and the file of the next 3 000 (three batches of 1 000). */
  const seeded = async (name: string, liveCommitRows?: number) => {
    const store = new SqliteListingStore(path.join(dir, name), { liveCommitRows });
    await load(store, writeNdjson(records.slice(0, 500), `${name}-first.ndjson`, dir));
    return store;
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'live-commits-'));
  });

  it('another connection sees the load a commit at a time, with checkpoints spaced out only meanwhile', async () => {
    const store = await seeded('live.sqlite', 1500);
    const reader = new Database(path.join(dir, 'live.sqlite'), { readonly: true });
    const seen: number[] = [];
    const checkpoints: number[] = [];
    try {
      const report = await load(store, writeNdjson(records.slice(500, 3500), 'next.ndjson', dir), {
        onProgress: () => {
          seen.push(ids(reader).length);
          checkpoints.push(store.database.pragma('wal_autocheckpoint', { simple: true }) as number);
        },
      });
      expect(report).to.include({ read: 3000, written: 3000 });
      // After the first batch nothing new is committed (1 000 < 1 500); the second commits both; the
      // third is committed when the load ends.
      expect(seen).to.deep.equal([500, 2500, 2500]);
      expect(ids(reader)).to.have.length(3500);
      expect(checkpoints).to.deep.equal([LOAD_CHECKPOINT_PAGES, LOAD_CHECKPOINT_PAGES, LOAD_CHECKPOINT_PAGES]);
      expect(store.database.pragma('wal_autocheckpoint', { simple: true })).to.equal(1000);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('a failed batch leaves whole commits only; the load run again gives the store of the per-batch path', async () => {
    const file = writeNdjson(records.slice(500, 3500), 'next.ndjson', dir);
    const failing = await seeded('failing.sqlite', 1500);
    const plain = await seeded('plain.sqlite');
    let batches = 0;
    const upsertMany = failing.upsertMany.bind(failing);
    failing.upsertMany = async (listings: StoredListing[]) => {
      // The second batch: its first 300 rows are written, then the 301st cannot be read.
      if (++batches !== 2) return upsertMany(listings);
      return upsertMany(withUnreadableListing(listings, 300));
    };
    try {
      const error = await load(failing, file).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).to.equal('unreadable listing');
      // The first batch was not committed yet when the second failed: both are rolled back, and the
      // store is as before the load.
      expect(ids(failing.database)).to.have.length(500);
      expect(failing.database.pragma('wal_autocheckpoint', { simple: true })).to.equal(1000);

      failing.upsertMany = upsertMany;
      const rerun = await load(failing, file);
      const perBatch = await load(plain, file, { bulkLoad: false });
      expect(rerun.written).to.equal(perBatch.written);
      const rows = (db: Database.Database) => db.prepare('SELECT * FROM listings ORDER BY id').all();
      expect(rows(failing.database)).to.deep.equal(rows(plain.database));
      expect(failing.database.pragma('integrity_check', { simple: true })).to.equal('ok');
    } finally {
      await failing.close();
      await plain.close();
    }
  });
});
