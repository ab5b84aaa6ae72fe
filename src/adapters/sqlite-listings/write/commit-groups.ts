/**
 * A load's writes in long transactions, committed every so many rows instead of once per batch of
 * 1 000: the first build's bulk mode (bulk-load.ts) and a load into a store that holds listings.
 *
 * A listing write touches an entry of each of the store's ~35 sort, filter and map indexes, at
 * random places in each; a daily load that commits per batch writes nearly every leaf page of those
 * indexes to the WAL at every commit, and a checkpoint copies it back. Committed every `commitRows`
 * rows, a page dirtied by many batches is written once (docs/benchmarks.md, "The daily load").
 * Readers (the API, in another process) go on reading the last commit meanwhile (WAL); they see a
 * load's listings a commit at a time.
 */
import type Database from 'better-sqlite3';

/**
 * Rows per transaction of a load into a store that holds listings. Readers see the load's listings
 * this many at a time (every 20 to 30 s of a daily load); the WAL holds at most this many rows'
 * pages before the commit.
 */
export const LIVE_COMMIT_ROWS = 20_000;

/**
 * WAL pages before a checkpoint while a load writes in long transactions (SQLite's default: 1 000).
 * A checkpoint syncs the WAL and the database file (synchronous = NORMAL) and copies every page
 * back; at the default it ran at each commit. The WAL file grows on disk between checkpoints; memory
 * does not (the WAL index is 8 bytes per page).
 */
export const LOAD_CHECKPOINT_PAGES = 50_000;
const DEFAULT_CHECKPOINT_PAGES = 1_000;

export class CommitGroups {
  private uncommitted = 0;

  /** Sets the load's checkpoint interval (LOAD_CHECKPOINT_PAGES) until end() or restoreCheckpoints(). */
  constructor(
    private readonly db: Database.Database,
    private readonly commitRows: number,
  ) {
    db.pragma(`wal_autocheckpoint = ${LOAD_CHECKPOINT_PAGES}`);
  }

  /**
   * Runs `write` (one batch) inside the current long transaction, committing every `commitRows` rows.
   * A batch that throws rolls back the whole open transaction (the batches since the last commit), so
   * the store only ever holds whole batches, as in the one-transaction-per-batch path; the load fails
   * with the error and running it again writes what is missing. Not a savepoint per batch: SQLite then
   * copies every page a batch changes again into a statement journal, which made a row's write
   * markedly dearer, the more so the larger the page cache.
   */
  write(write: () => void, rows: number): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN IMMEDIATE');
    try {
      write();
    } catch (error) {
      this.rollback();
      throw error;
    }
    this.uncommitted += rows;
    if (this.uncommitted >= this.commitRows) this.commit();
  }

  /** Commits the open transaction now (another connection is about to read what it wrote). */
  commit(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.uncommitted = 0;
  }

  /** SQLite's default checkpoint interval again. */
  restoreCheckpoints(): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_CHECKPOINT_PAGES}`);
  }

  /** Commits what is written (also after a failed load: what was committed stays) and restores the checkpoints. */
  end(): void {
    try {
      this.commit();
    } finally {
      this.restoreCheckpoints();
    }
  }

  private rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.uncommitted = 0;
  }
}
