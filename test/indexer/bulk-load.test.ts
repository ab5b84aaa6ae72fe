/**
 * Over 300 lines on purpose: one suite around one fixture (the records with rejects, the build
 * interrupted half-way) that every case loads and compares with the plain path.
 *
 * The first build of a SQLite store (bulk mode, src/adapters/sqlite-listings/write/bulk-load.ts) and parsing in a
 * worker thread (indexer/parsed-lines.ts), through runLoad: both must leave exactly the store (and
 * the rejects) of the plain path, and a bulk load that dies half-way must be finished by the next open.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runLoad, type LoadOptions, type LoadReport } from '../../indexer/load.js';
import { DedupGrouping } from '../../indexer/dedup/stage.js';
import { generateSample } from '../../indexer/sample/generate.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { bulkLoadPending } from '../../src/adapters/sqlite-listings/write/bulk-load.js';
import { currentBootId, unsyncedBuildMarker, UnsyncedBuildInterruptedError } from '../../src/adapters/sqlite-listings/write/unsynced-build.js';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { withUnreadableListing } from '../support/unreadable-listing.js';
import { makeListings } from '../support/fixtures.js';
import type { StoredListing } from '../../src/core/model/stored.js';

const sites = loadSites();
const communes = loadCommunes();

/** Everything a query can see: rows, full-text vocabulary and postings, boxes, and the schema objects. */
function snapshot(store: SqliteListingStore) {
  const db = store.database;
  return {
    rows: db.prepare('SELECT rowid AS r, * FROM listings ORDER BY rowid').all(),
    vocabulary: db.prepare('SELECT term, doc, cnt FROM listings_fts_vocab ORDER BY term').all(),
    matches: ['appartement', 'maison', 'lumineux', 'terrain'].map((word) =>
      db.prepare('SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid').all(word),
    ),
    boxes: db.prepare('SELECT * FROM listings_rtree ORDER BY id').all(),
    features: db.prepare('SELECT * FROM dedup_features ORDER BY rowid').all(),
    schema: db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY name").all(),
  };
}

function checkIntegrity(store: SqliteListingStore): void {
  const db = store.database;
  expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
  // Throws when the full-text index does not match the table.
  db.exec("INSERT INTO listings_fts(listings_fts, rank) VALUES ('integrity-check', 1)");
  const withCoordinates = (db.prepare('SELECT count(*) AS n FROM listings WHERE lat IS NOT NULL AND lon IS NOT NULL').get() as { n: number }).n;
  expect((db.prepare('SELECT count(*) AS n FROM listings_rtree').get() as { n: number }).n).to.equal(withCoordinates);
  // The count kept by triggers (not dropped by a bulk load) is the table's.
  expect((db.prepare('SELECT n FROM listing_count').get() as { n: number }).n).to.equal(
    (db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n,
  );
  expect(bulkLoadPending(db)).to.equal(false);
}

/** A load report without its timings and memory figures: what two loads of the same input must share. */
function countsOf(report: LoadReport) {
  const {
    seconds: _s,
    records_per_second: _r,
    write_seconds: _w,
    grouping_seconds: _g,
    peak_rss_mib_writing: _m,
    peak_rss_mib: _p,
    longest_event_loop_pause_ms: _l,
    ...counts
  } = report;
  return counts;
}

describe('indexer first build (bulk mode) and parse worker', function () {
  this.timeout(120_000);
  const clock = Date.now();
  let dir: string;
  const records = [...generateSample({ count: 2500, seed: 11 })].map((s) => s.record as Record<string, unknown>);
  const withRejects = [
    ...records.slice(0, 600),
    '{not json',
    { ...rawRecord(2), source: 'unknown-site' },
    { ...rawRecord(3), reference: undefined },
    { ...rawRecord(4), collected_at: '2099-01-01T00:00:00Z' },
    { ...rawRecord(5), collected_at: 'hier' },
    ...records.slice(600, 1500),
  ];

  const open = (name: string, options = {}) => new SqliteListingStore(path.join(dir, name), options);
  const load = (store: SqliteListingStore, file: string, extra: Partial<LoadOptions> = {}) =>
    runLoad({ files: [file], store, sites, communes, now: () => clock, grouping: new DedupGrouping({ sites }), ...extra });

  /** A first build whose connection goes away once `read` records were read: the load's error. */
  const interruptedBuild = (name: string, file: string, read: number) => {
    const dying = open(name, { bulkCommitRows: 500 });
    return load(dying, file, {
      onProgress: (report) => {
        if (report.read >= read) {
          dying.database.close();
          throw new Error('killed');
        }
      },
    }).then(
      () => null,
      (error: Error) => error,
    );
  };

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bulk-'));
  });

  it('a bulk first build gives the store, report and rejects of the incremental path; later loads are incremental', async () => {
    const file = writeNdjson(withRejects, 'in.ndjson', dir);
    const bulk = open('bulk.sqlite', { bulkCommitRows: 700 });
    const incremental = open('incremental.sqlite');
    try {
      const bulkReport = await load(bulk, file, { rejectsFile: path.join(dir, 'bulk-rejects.ndjson') });
      const plainReport = await load(incremental, file, { bulkLoad: false, rejectsFile: path.join(dir, 'plain-rejects.ndjson') });
      expect(countsOf(bulkReport)).to.deep.equal(countsOf(plainReport));
      expect(bulkReport).to.include({ read: 1505, rejected: 5 });
      expect(readFileSync(path.join(dir, 'bulk-rejects.ndjson'), 'utf8')).to.equal(readFileSync(path.join(dir, 'plain-rejects.ndjson'), 'utf8'));
      expect(snapshot(bulk)).to.deep.equal(snapshot(incremental));
      checkIntegrity(bulk);

      // The store now holds listings: the next load writes through the triggers and live indexes.
      const more = writeNdjson(
        [...records.slice(1400, 2500), { ...records[0], title: 'Zorglubesque maison restaurée', collected_at: new Date(clock).toISOString() }],
        'more.ndjson',
        dir,
      );
      await load(bulk, more);
      await load(incremental, more, { bulkLoad: false });
      expect(snapshot(bulk)).to.deep.equal(snapshot(incremental));
      expect(bulk.database.prepare("SELECT count(*) AS n FROM listings_fts WHERE listings_fts MATCH 'zorglubesque'").get()).to.deep.equal({ n: 1 });
      checkIntegrity(bulk);
    } finally {
      await bulk.close();
      await incremental.close();
    }
  });

  it('a bulk load that dies half-way is finished by the next open: every index, the full text and the boxes', async () => {
    const file = writeNdjson(records, 'in.ndjson', dir);
    // The process "dies" after the second batch: the connection goes away without finishing.
    expect(await interruptedBuild('crash.sqlite', file, 2000)).to.be.an('error');

    const reopened = open('crash.sqlite');
    const fresh = open('fresh.sqlite');
    try {
      const kept = (reopened.database.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n;
      expect(kept).to.be.at.least(1000);
      checkIntegrity(reopened);
      expect(snapshot(reopened).schema).to.deep.equal(snapshot(fresh).schema);
      // Running the load again completes it, incrementally, as after any interrupted load.
      const report = await load(reopened, file);
      expect(report.read).to.equal(records.length);
      expect(await reopened.count()).to.equal(new Set(records.map((r) => `${r.source}:${r.reference}`)).size);
      checkIntegrity(reopened);
    } finally {
      await reopened.close();
      await fresh.close();
    }
  });

  it('a first build writes without syncing under a marker outside the file, removed once synced, also when it fails', async () => {
    const file = writeNdjson(records.slice(0, 600), 'in.ndjson', dir);
    const store = open('unsynced.sqlite', { bulkCommitRows: 250 });
    const storeFile = path.join(dir, 'unsynced.sqlite');
    const during: { synchronous: unknown; marker: unknown }[] = [];
    try {
      await load(store, file, {
        onProgress: () => {
          const marker = existsSync(unsyncedBuildMarker(storeFile)) ? JSON.parse(readFileSync(unsyncedBuildMarker(storeFile), 'utf8')) : null;
          during.push({ synchronous: store.database.pragma('synchronous', { simple: true }), marker });
        },
      });
      expect(during).to.not.be.empty;
      for (const seen of during) {
        expect(seen.synchronous, 'OFF while building').to.equal(0);
        expect(seen.marker).to.include({ boot_id: currentBootId(), pid: process.pid });
      }
      expect(existsSync(unsyncedBuildMarker(storeFile)), 'removed once synced').to.equal(false);
      expect(store.database.pragma('synchronous', { simple: true }), 'NORMAL again').to.equal(1);
      checkIntegrity(store);
    } finally {
      await store.close();
    }
    // A build that fails ends the same way: synced, unmarked, its flag for the next open to finish.
    const failing = open('unsynced-failing.sqlite', { bulkCommitRows: 250 });
    const failingFile = path.join(dir, 'unsynced-failing.sqlite');
    const upsertMany = failing.upsertMany.bind(failing);
    let batches = 0;
    failing.upsertMany = async (listings: StoredListing[]) => {
      const failures = await upsertMany(listings);
      if (++batches === 1) throw new Error('disk says no');
      return failures;
    };
    try {
      expect(
        (
          await load(failing, file).then(
            () => null,
            (e: Error) => e,
          )
        )?.message,
      ).to.equal('disk says no');
      expect(existsSync(unsyncedBuildMarker(failingFile))).to.equal(false);
      expect(failing.database.pragma('synchronous', { simple: true })).to.equal(1);
    } finally {
      await failing.close();
    }
  });

  it('an open leaves a build that another live process runs alone, and refuses a store a restart left unsynced', async () => {
    const storeFile = path.join(dir, 'shared.sqlite');
    // A first build interrupted (its connection gone) leaves its flag: what a live build's store shows.
    await interruptedBuild('shared.sqlite', writeNdjson(records.slice(0, 1500), 'in.ndjson', dir), 1000);
    const flagged = () => {
      const db = new Database(storeFile, { readonly: true });
      try {
        return bulkLoadPending(db);
      } finally {
        db.close();
      }
    };
    expect(flagged()).to.equal(true);
    // Its marker names a live process of this boot: another open neither builds the indexes nor unmarks it.
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(unsyncedBuildMarker(storeFile), JSON.stringify({ boot_id: currentBootId(), pid: live.pid, started_at: 'then' }));
      const beside = open('shared.sqlite');
      expect(flagged(), 'the live build finishes itself').to.equal(true);
      expect(existsSync(unsyncedBuildMarker(storeFile))).to.equal(true);
      await beside.close();
    } finally {
      live.kill('SIGKILL');
      await once(live, 'exit');
    }
    // The same marker from a boot before this one: the machine restarted mid-build. Refused, with what to do.
    writeFileSync(unsyncedBuildMarker(storeFile), JSON.stringify({ boot_id: 'a-boot-before-this-one', pid: 1, started_at: '2026-11-24T20:00:00.000Z' }));
    expect(() => open('shared.sqlite')).to.throw(UnsyncedBuildInterruptedError, /restarted.*delete .*shared\.sqlite/);
    // Of this boot, its process gone: the open finishes the build, syncs and unmarks it.
    writeFileSync(unsyncedBuildMarker(storeFile), JSON.stringify({ boot_id: currentBootId(), pid: live.pid, started_at: 'then' }));
    const recovered = open('shared.sqlite');
    try {
      expect(existsSync(unsyncedBuildMarker(storeFile))).to.equal(false);
      checkIntegrity(recovered);
    } finally {
      await recovered.close();
    }
  });

  it('a batch that fails half-way through its writes leaves whole batches only, and checked indexes', async () => {
    const file = writeNdjson(records, 'in.ndjson', dir);
    const store = open('failing.sqlite', { bulkCommitRows: 1500 });
    const committed: string[][] = [];
    const upsertMany = store.upsertMany.bind(store);
    store.upsertMany = async (listings: StoredListing[]) => {
      if (committed.length < 2) {
        committed.push(listings.map((l) => l.id));
        return upsertMany(listings);
      }
      // The third batch: its first 300 rows are written, then the 301st cannot be read.
      return upsertMany(withUnreadableListing(listings, 300));
    };
    try {
      const error = await load(store, file).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).to.equal('unreadable listing');
      // The first two batches were committed together (2 000 rows >= 1 500); of the third, nothing.
      const stored = new Set((store.database.prepare('SELECT id FROM listings').all() as { id: string }[]).map((r) => r.id));
      expect([...stored].sort()).to.deep.equal([...new Set(committed.flat())].sort());
      checkIntegrity(store);
    } finally {
      await store.close();
    }
  });

  it('parsing in a worker thread gives the same rejects, report and store as parsing in the load thread', async () => {
    const file = writeNdjson(withRejects, 'in.ndjson', dir);
    const inWorker = open('worker.sqlite');
    const inline = open('inline.sqlite');
    try {
      const a = await load(inWorker, file, { parseInWorker: true, rejectsFile: path.join(dir, 'worker-rejects.ndjson') });
      const b = await load(inline, file, { rejectsFile: path.join(dir, 'inline-rejects.ndjson') });
      expect(countsOf(a)).to.deep.equal(countsOf(b));
      const rejects = readFileSync(path.join(dir, 'worker-rejects.ndjson'), 'utf8');
      expect(rejects).to.equal(readFileSync(path.join(dir, 'inline-rejects.ndjson'), 'utf8'));
      expect(
        rejects
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).line),
      ).to.deep.equal([601, 602, 603, 604, 605]);
      expect(snapshot(inWorker)).to.deep.equal(snapshot(inline));
    } finally {
      await inWorker.close();
      await inline.close();
    }
  });

  it('a parse worker that cannot read its input fails the load with the reason', async () => {
    const store = open('missing.sqlite');
    try {
      const error = await load(store, path.join(dir, 'does-not-exist.ndjson'), { parseInWorker: true }).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).to.match(/ENOENT/);
    } finally {
      await store.close();
    }
  });

  it('the report gives the final build of a bulk load apart: its time and what it added to the peak memory', async () => {
    const file = writeNdjson(records.slice(0, 300), 'phases.ndjson', dir);
    const store = open('phases.sqlite');
    // The store's real bulk mode, with a final build that takes 300 ms more and holds 64 MiB more
    // than the process ever held, so that both must show in the final figures only.
    const bulkMode = store.duringBulkLoad.bind(store);
    store.duringBulkLoad = async <T>(load: () => Promise<T>) =>
      bulkMode(async () => {
        const result = await load();
        const extra = Math.max(0, process.resourceUsage().maxRSS * 1024 - process.memoryUsage().rss) + 64 * 1024 * 1024;
        const held = Buffer.alloc(extra, 1);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(held[extra - 1]).to.equal(1);
        return result;
      });
    try {
      const report = await load(store, file);
      expect(report).to.include({ read: 300, written: 300 });
      expect(report.seconds - report.write_seconds).to.be.within(0.29, 5);
      expect(report.peak_rss_mib - report.peak_rss_mib_writing).to.be.at.least(60);
      expect(report.peak_rss_mib).to.be.closeTo(process.resourceUsage().maxRSS / 1024, 1);
    } finally {
      await store.close();
    }
    // Without a bulk mode (a store holding listings), nothing is built at the end.
    const incremental = open('incremental-phases.sqlite');
    try {
      const report = await load(incremental, file, { bulkLoad: false });
      expect(report.seconds - report.write_seconds).to.be.below(0.05);
      expect(report.peak_rss_mib_writing).to.be.above(0);
    } finally {
      await incremental.close();
    }
  });

  it('the API answers the map while a first load runs in bulk mode (its indexes dropped), and after', async () => {
    const file = path.join(dir, 'api-during-bulk.sqlite');
    const api = new SqliteListingStore(file);
    const loader = new SqliteListingStore(file);
    const listings = makeListings({ count: 60, seed: 3 });
    const query = {
      filter: {},
      scope: { enteredFrom: 0, eligibleSites: null },
      grouped: true,
      bbox: { south: -90, west: -180, north: 90, east: 180 },
      limit: 2000,
    };
    expect((await api.map(query)).total).to.equal(0); // the API has seen ix_map before the load drops it
    let during = -1;
    await loader.duringBulkLoad(async () => {
      await loader.upsertMany(listings);
      loader.database.exec('COMMIT'); // what a bulk load does every 20 000 rows
      during = (await api.map(query)).total;
    });
    const expected = listings.filter((l) => l.status === 'active' && l.has_photos && l.group_sites_ahead.length === 0 && l.content.latitude !== null).length;
    expect(during).to.equal(expected);
    expect((await api.map(query)).total).to.equal(expected);
    await api.close();
    await loader.close();
  });
});
