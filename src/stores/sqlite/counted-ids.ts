/**
 * The in-memory key directory of `usage_log` (usage-counters.ts): for each account this connection
 * counts for, listing id -> `seq` of the row that counts it.
 *
 * An account's directory is read whole from the table the first time it is needed, then kept up to
 * date from the rows appended since (by this connection or another one on the same file), read at the
 * start of each counting transaction: `seq` only grows (AUTOINCREMENT), so "rows after the last one
 * seen" is one range read of the table's key. Every use happens inside the write transaction, so
 * nothing can be appended between that read and the counting.
 *
 * The directory may hold more than the table (rows another connection removed, counts that rolled
 * back), never less: the caller checks a hit against its row. After a failed transaction the whole
 * directory is dropped (`reset`), because the rows it read may have been undone and their `seq`
 * taken again by another connection.
 *
 * Memory is bounded: past `maxEntries` ids in all, the directories of the accounts that counted least
 * recently are dropped (read again from the table when they count again). An entry is about 75 bytes.
 */
import type Database from 'better-sqlite3';
import type { StatementCache } from './statements.js';

/** Default bound of the ids kept in memory, all accounts together: about 300 MiB. */
export const DEFAULT_DIRECTORY_ENTRIES = 4_000_000;

export class CountedIds {
  /** In order of last use (a Map iterates in insertion order; a use moves the account to the end). */
  private readonly byAccount = new Map<string, Map<string, number>>();
  /** Highest `seq` applied to the directories; null: to be read (after open or reset). */
  private lastSeq: number | null = null;

  constructor(private readonly statements: StatementCache, private readonly maxEntries = DEFAULT_DIRECTORY_ENTRIES) {}

  /** The account's directory, complete as of now. Call inside the counting transaction. */
  of(accountId: string): Map<string, number> {
    this.catchUp();
    let ids = this.byAccount.get(accountId);
    if (ids) this.byAccount.delete(accountId);
    else ids = this.load(accountId);
    this.byAccount.set(accountId, ids);
    return ids;
  }

  /** Ids held in memory, all accounts together. */
  get entries(): number {
    let total = 0;
    for (const ids of this.byAccount.values()) total += ids.size;
    return total;
  }

  /** Drops an account's directory (its rows were deleted, or it grew stale); read again when needed. */
  forget(accountId: string): void {
    this.byAccount.delete(accountId);
  }

  /** Drops the entries of rows this connection deleted. */
  remove(accountId: string, ids: readonly string[]): void {
    const counted = this.byAccount.get(accountId);
    if (counted) for (const id of ids) counted.delete(id);
  }

  /**
   * Rows up to `seq` are in the directories: the counting that appended them committed, and it held
   * the write lock from its catch-up to its commit, so nobody else appended before them; AUTOINCREMENT
   * never gives a later row a smaller `seq`. Saves reading a page's own rows back (5 % of a feed
   * request's server time, profiled).
   */
  seenUpTo(seq: number): void {
    if (this.lastSeq !== null && seq > this.lastSeq) this.lastSeq = seq;
  }

  /** Drops everything: after a transaction that failed, the rows read during it may not exist. */
  reset(): void {
    this.byAccount.clear();
    this.lastSeq = null;
  }

  /** Keeps the bound after `current` counted: drops the directories of the least recent other accounts. */
  trim(current: string): void {
    // One account is never dropped while it counts: nothing to add up.
    if (this.byAccount.size <= 1) return;
    let total = this.entries;
    for (const [accountId, ids] of this.byAccount) {
      if (total <= this.maxEntries || accountId === current) break;
      this.byAccount.delete(accountId);
      total -= ids.size;
    }
  }

  private catchUp(): void {
    if (this.lastSeq === null) {
      // Nothing is loaded yet, so earlier rows will be read with their account.
      this.lastSeq = (this.raw('SELECT ifnull(max(seq), 0) FROM usage_log').get() as [number])[0];
      return;
    }
    for (const [seq, account, id] of this.raw('SELECT seq, account, id FROM usage_log WHERE seq > ? ORDER BY seq').iterate(this.lastSeq) as Iterable<[number, string, string]>) {
      this.byAccount.get(account)?.set(id, seq);
      this.lastSeq = seq;
    }
  }

  private load(accountId: string): Map<string, number> {
    const ids = new Map<string, number>();
    // Every row is in at least one window (a row leaving its last one is deleted): the two partial
    // indexes find them all, each once, without scanning other accounts' rows. About 1.7 s for an
    // account with a million listings counted (the Map's inserts, mostly), once per process.
    const inDay = 'SELECT seq, id FROM usage_log WHERE account = ? AND day_at IS NOT NULL';
    const monthOnly = 'SELECT seq, id FROM usage_log WHERE account = ? AND month_at IS NOT NULL AND day_at IS NULL';
    for (const text of [inDay, monthOnly]) {
      for (const [seq, id] of this.raw(text).iterate(accountId) as Iterable<[number, string]>) ids.set(id, seq);
    }
    return ids;
  }

  /** Statements read as arrays (their own SQL texts: raw mode sticks to a cached statement). */
  private raw(text: string): Database.Statement {
    return this.statements.get(text).raw(true);
  }
}
