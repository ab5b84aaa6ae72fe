/** Embedded AccessStore: its own SQLite file beside the listings, so counter writes never wait on the indexer. */
import Database from 'better-sqlite3';
import type { AccessHealth, AccessStore, Admission, ListingLimits, UsageScope } from '../../core/ports/access-store.js';
import { SqliteAccountStore } from './account-store.js';
import { SqliteUsageCounters } from './usage-counters.js';

const ACCESS_CHECKPOINT_PAGES = 16_000;

export interface SqliteAccessOptions {
  /** Bound of the counted ids kept in memory, all accounts together (default in counted-ids.ts). */
  directoryEntries?: number;
}

export class SqliteAccessStore extends SqliteAccountStore implements AccessStore {
  readonly backend = 'sqlite';
  private readonly usage: SqliteUsageCounters;

  constructor(db: Database.Database, options: SqliteAccessOptions = {}) {
    super(db);
    this.usage = new SqliteUsageCounters(db, options.directoryEntries);
  }

  /** The connection, for the alert store that shares the file. */
  get database(): Database.Database {
    return this.db;
  }

  static open(file: string, options: SqliteAccessOptions = {}): SqliteAccessStore {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // Every listing request commits its counted ids (random keys: each commit dirties pages all over
    // the usage index). At SQLite's default a checkpoint, with its fsync, ran every few feed pages;
    // spacing checkpoints by ACCESS_CHECKPOINT_PAGES makes counting a feed page clearly cheaper. The
    // file is truncated back to that size after each checkpoint, so the WAL stays bounded.
    db.pragma(`wal_autocheckpoint = ${ACCESS_CHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${ACCESS_CHECKPOINT_PAGES * 4096}`);
    return new SqliteAccessStore(db, options);
  }

  admit(scope: UsageScope, admission: Admission) {
    return this.usage.admit(scope, admission);
  }
  consumeListings(scope: UsageScope, ids: readonly string[], limits: ListingLimits) {
    return this.usage.consumeListings(scope, ids, limits);
  }
  readUsage(scope: UsageScope) {
    return this.usage.readUsage(scope);
  }
  /** Counted ids held in memory, all accounts together (tests of its bound). */
  directoryEntries(): number {
    return this.usage.directoryEntries();
  }
  /** Counter rows kept for an account (tests of bounded growth). */
  async footprint(accountId: string): Promise<number> {
    return this.usage.footprint(accountId);
  }

  async health(): Promise<AccessHealth> {
    try {
      this.db.prepare('SELECT 1').get();
      return { ok: true, backend: this.backend };
    } catch (error) {
      return { ok: false, backend: this.backend, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
