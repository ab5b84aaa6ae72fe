/**
 * Bulk mode of the SQLite store for a FIRST build (a load into an empty store).
 *
 * Keeping the sort, filter, map and feed indexes (DEFERRED_INDEXES), the FTS5 index and the R*Tree
 * up to date row by row, and flushing an FTS5 segment at every 1 000-row commit, was about half of a
 * load's time (with the 23 indexes of then). On an empty store
 * nobody depends on them yet, so a bulk load:
 *   1. drops the indexes the load does not read and the triggers that feed FTS5 and the R*Tree, and
 *      sets the meta flag `bulk_load_pending` (one transaction, only when the table is empty);
 *   2. writes in transactions of BULK_COMMIT_ROWS rows instead of one per batch (commit-groups.ts);
 *   3. builds everything once at the end (completeIndexes): FTS5 'rebuild', one INSERT ... SELECT
 *      into the R*Tree, the schema again (CREATE ... IF NOT EXISTS re-creates the indexes and
 *      triggers), then clears the flag.
 * Kept during the load, because the load reads them: the UNIQUE id index (getMany, upsert),
 * ix_block (findBlock, findBlockCandidates), ix_change_seq (maxChangeSeq) and ix_withdrawn_block
 * (withdrawnInBlocks: relistings are found while the load writes).
 *
 * Crash safety: every step of completeIndexes is idempotent and the flag is cleared last, so a
 * process that dies at any point leaves the flag set, and the next open of the store (any process:
 * indexer or API) runs completeIndexes again (recoverBulkLoad). The build writes without syncing to
 * disk, under a marker outside the file that a restart of the machine leaves behind
 * (write/unsynced-build.ts): such a store refuses to open instead of serving what the disk kept. A store that holds rows is never
 * put in bulk mode: the API reads the same file while an incremental load runs.
 */
import type Database from 'better-sqlite3';
import { LISTINGS_SCHEMA } from '../schema/tables.js';
import { rebuildFullText } from '../schema/maintenance.js';
import { beginUnsyncedBuild, checkUnsyncedBuild, endUnsyncedBuild } from './unsynced-build.js';
import { CommitGroups } from './commit-groups.js';

/** Indexes the load itself reads; every other index of the schema is built at the end. */
const KEPT_INDEXES = new Set(['ix_block', 'ix_change_seq', 'ix_withdrawn_block']);

function schemaNames(kind: 'INDEX' | 'TRIGGER'): string[] {
  return [...LISTINGS_SCHEMA.matchAll(new RegExp(`CREATE ${kind} IF NOT EXISTS (\\w+)`, 'g'))].map((m) => m[1]);
}

export const DEFERRED_INDEXES = schemaNames('INDEX').filter((name) => !KEPT_INDEXES.has(name));
/** The triggers that keep FTS5 and the R*Tree in step with the table. */
export const SYNC_TRIGGERS = schemaNames('TRIGGER');

const PENDING_FLAG = 'bulk_load_pending';

/** SQLite `threads` while the deferred indexes are built (completeIndexes). */
const SORTER_HELPER_THREADS = 1;

/**
 * Rows per transaction in bulk mode. Fewer commits write each hot page of the id and block indexes
 * to the WAL fewer times; the WAL (and the page cache it dirties) stays bounded by this size.
 */
export const BULK_COMMIT_ROWS = 20_000;

export class BulkLoad {
  private constructor(
    private readonly db: Database.Database,
    /** The load's transactions, with checkpoints spaced out (commit-groups.ts). */
    private readonly commits: CommitGroups,
    /** Writing with `synchronous = OFF` under a marker (write/unsynced-build.ts) until finish syncs. */
    private readonly unsynced: boolean,
  ) {}

  /** Bulk mode when the store is empty; null (write as usual) when it holds anything. */
  static start(db: Database.Database, commitRows = BULK_COMMIT_ROWS): BulkLoad | null {
    const started = db
      .transaction(() => {
        if (db.prepare('SELECT 1 FROM listings LIMIT 1').get() !== undefined) return false;
        db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(PENDING_FLAG, new Date().toISOString());
        for (const name of SYNC_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
        for (const name of DEFERRED_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`);
        return true;
      })
      .immediate();
    if (!started) return null;
    const commits = new CommitGroups(db, commitRows);
    const unsynced = beginUnsyncedBuild(db.name);
    if (unsynced) db.pragma('synchronous = OFF');
    return new BulkLoad(db, commits, unsynced);
  }

  /** One batch's writes, committed with the next ones (CommitGroups.write). */
  write(write: () => void, rows: number): void {
    this.commits.write(write, rows);
  }

  /** Commits the open transaction now (another connection is about to read what it wrote). */
  commit(): void {
    this.commits.commit();
  }

  /** Commits what is written and builds the deferred indexes. Also after a failed load: what was written stays. */
  end(): void {
    try {
      this.commits.commit();
      completeIndexes(this.db);
    } finally {
      this.commits.restoreCheckpoints();
      // Whatever happened, what was written goes to disk before the marker goes; a failed build's
      // flag is then as safe as after any process crash.
      if (this.unsynced) {
        if (this.db.open) this.db.pragma('synchronous = NORMAL');
        endUnsyncedBuild(this.db.name);
      }
    }
  }
}

/** Builds what a bulk load deferred, then clears the flag. Idempotent: safe to run again after a crash. */
export function completeIndexes(db: Database.Database): void {
  // Sorting a million keys for CREATE INDEX must spill to temporary FILES, not memory (the store
  // sets temp_store = MEMORY for the API's small sorts), or the sorter alone exceeds the RSS bound.
  const tempStore = db.pragma('temp_store', { simple: true }) as number;
  db.pragma('temp_store = FILE');
  // One helper thread for the sorts of CREATE INDEX, on the core the load's parse worker used: each
  // search index builds faster (docs/benchmarks-history.md).
  db.pragma(`threads = ${SORTER_HELPER_THREADS}`);
  try {
    rebuildFullText(db);
    db.transaction(() => {
      db.exec('DELETE FROM listings_rtree');
      db.exec(`INSERT INTO listings_rtree(id, min_lat, max_lat, min_lon, max_lon)
        SELECT rowid, lat, lat, lon, lon FROM listings WHERE lat IS NOT NULL AND lon IS NOT NULL`);
    })();
    // Indexes one by one (each its own transaction keeps the WAL to one index), then the triggers.
    db.exec(LISTINGS_SCHEMA);
    db.prepare('DELETE FROM meta WHERE key = ?').run(PENDING_FLAG);
  } finally {
    db.pragma('threads = 0');
    db.pragma(`temp_store = ${tempStore}`);
  }
}

/**
 * On open: refuses a store whose unsynced build a restart of the machine interrupted, and finishes a
 * bulk load that did not end (the flag is still set). True when it had to finish one.
 */
export function recoverBulkLoad(db: Database.Database): boolean {
  const unsynced = checkUnsyncedBuild(db.name);
  // A build running in another process (or on another connection of this one) finishes itself.
  if (unsynced === 'running') return false;
  const pending = bulkLoadPending(db);
  if (pending) completeIndexes(db);
  // The process that wrote the marker died (before or after clearing its flag): synced now, the
  // store is as after any crash.
  if (unsynced === 'dead') endUnsyncedBuild(db.name);
  return pending;
}

/** Whether a bulk load is pending (for tests and diagnostics). */
export function bulkLoadPending(db: Database.Database): boolean {
  // Before the schema of a new file exists (the store calls this first thing on open).
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() === undefined) return false;
  return db.prepare('SELECT 1 FROM meta WHERE key = ?').get(PENDING_FLAG) !== undefined;
}
