/**
 * The in-memory key directory of `usage_log` (usage-counters.ts): for each account this connection
 * counts for, listing id -> `seq` of the row that counts it, and which windows that row is in.
 *
 * An account's directory is read whole from the table the first time it is needed, then kept up to
 * date from the rows appended since (by this connection or another one on the same file), read at the
 * start of each counting transaction: `seq` only grows (AUTOINCREMENT), so "rows after the last one
 * seen" is one range read of the table's key. Every use happens inside the write transaction, so
 * nothing can be appended between that read and the counting.
 *
 * This connection's own changes to an account's rows (appends, re-entries, window expiry) are applied
 * to the directory as it makes them, so while no other connection has written for the account the
 * directory IS the table and a hit is answered from memory. Another connection's writes (another API
 * process on the file, an admin command) are seen in the account's `usage_windows.writer`
 * (`distrust`): from then on each hit is checked against its row (and its entry corrected) until
 * every entry has been checked or rewritten since. Reading the row of each re-delivered listing was
 * 12 % of a search request's server time (profiled, 25 re-delivered ids a page).
 *
 * The directory may hold more than the table only while distrusted (rows another connection removed):
 * the check then drops the entry. After a failed transaction the whole directory is dropped (`reset`),
 * because the rows it read or wrote may have been undone and their `seq` taken again by another
 * connection.
 *
 * Memory is bounded: past `maxEntries` ids in all, the directories of the accounts that counted least
 * recently are dropped (read again from the table when they count again). An entry is about 75 bytes.
 */
import type Database from 'better-sqlite3';
import type { StatementCache } from '../sqlite-shared/statements.js';

/** Default bound of the ids kept in memory, all accounts together: what bounds this cache's memory. */
export const DEFAULT_DIRECTORY_ENTRIES = 4_000_000;

/** What the directory knows of a counted listing's row. */
export interface CountedEntry {
  seq: number;
  inDay: boolean;
  inMonth: boolean;
  /** False: another connection may have changed the row since; read it before using the rest. */
  trusted: boolean;
}

// An entry is one number, `seq` * 4 + the window bits (arithmetic, not bitwise on the whole: `seq` may
// pass 2^29): a Map of numbers costs half a Map of objects.
const IN_DAY = 1;
const IN_MONTH = 2;
const pack = (seq: number, inDay: boolean, inMonth: boolean) => seq * 4 + (inDay ? IN_DAY : 0) + (inMonth ? IN_MONTH : 0);

/** One account's counted ids. */
export class AccountDirectory {
  private readonly ids = new Map<string, number>();
  /**
   * Null: every entry is the table's. Otherwise another connection wrote for the account and only
   * the entries in this set have been checked against their rows (or written by us) since.
   */
  private checkedSinceForeignWrite: Set<string> | null = null;

  get size(): number {
    return this.ids.size;
  }

  get(id: string): CountedEntry | undefined {
    const value = this.ids.get(id);
    if (value === undefined) return undefined;
    const trusted = this.checkedSinceForeignWrite === null || this.checkedSinceForeignWrite.has(id);
    const bits = value % 4;
    return { seq: (value - bits) / 4, inDay: (bits & IN_DAY) !== 0, inMonth: (bits & IN_MONTH) !== 0, trusted };
  }

  /** The row of `id` as it is now in the table (read from it, or just written by this connection). */
  set(id: string, seq: number, inDay: boolean, inMonth: boolean): void {
    this.ids.set(id, pack(seq, inDay, inMonth));
    const checked = this.checkedSinceForeignWrite;
    if (checked === null) return;
    checked.add(id);
    if (checked.size >= this.ids.size) this.checkedSinceForeignWrite = null;
  }

  delete(id: string): void {
    this.ids.delete(id);
    const checked = this.checkedSinceForeignWrite;
    if (checked === null) return;
    checked.delete(id);
    if (checked.size >= this.ids.size) this.checkedSinceForeignWrite = null;
  }

  /** This connection took the row of `id` out of a window (usage-counters.ts leaveWindow). */
  leave(id: string, win: 'day' | 'month'): void {
    const value = this.ids.get(id);
    if (value === undefined) return;
    const bits = value % 4;
    this.ids.set(id, value - bits + (bits & ~(win === 'day' ? IN_DAY : IN_MONTH)));
  }

  /** Another connection wrote for the account: every entry is checked against its row before use. */
  distrust(): void {
    if (this.ids.size > 0) this.checkedSinceForeignWrite = new Set();
  }
}

export class CountedIds {
  /** In order of last use (a Map iterates in insertion order; a use moves the account to the end). */
  private readonly byAccount = new Map<string, AccountDirectory>();
  /** Highest `seq` applied to the directories; null: to be read (after open or reset). */
  private lastSeq: number | null = null;

  constructor(
    private readonly statements: StatementCache,
    private readonly maxEntries = DEFAULT_DIRECTORY_ENTRIES,
  ) {}

  /** The account's directory, complete as of now. Call inside the counting transaction. */
  of(accountId: string): AccountDirectory {
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

  /** Another connection wrote for the account since this one last did (usage_windows.writer). */
  distrust(accountId: string): void {
    this.byAccount.get(accountId)?.distrust();
  }

  /** Drops the entries of rows this connection deleted. */
  remove(accountId: string, ids: readonly string[]): void {
    const counted = this.byAccount.get(accountId);
    if (counted) for (const id of ids) counted.delete(id);
  }

  /** This connection took these rows out of window `win` (they stay in the other one). */
  leave(accountId: string, ids: readonly string[], win: 'day' | 'month'): void {
    const counted = this.byAccount.get(accountId);
    if (counted) for (const id of ids) counted.leave(id, win);
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
    const appended = 'SELECT seq, account, id, day_at IS NOT NULL, month_at IS NOT NULL FROM usage_log WHERE seq > ? ORDER BY seq';
    for (const [seq, account, id, inDay, inMonth] of this.raw(appended).iterate(this.lastSeq) as Iterable<[number, string, string, number, number]>) {
      this.byAccount.get(account)?.set(id, seq, inDay === 1, inMonth === 1);
      this.lastSeq = seq;
    }
  }

  private load(accountId: string): AccountDirectory {
    const ids = new AccountDirectory();
    // Every row is in at least one window (a row leaving its last one is deleted): the two partial
    // indexes find them all, each once, without scanning other accounts' rows. Slow for an account
    // with many listings counted (the Map's inserts, mostly), but done once per process.
    const inDay = 'SELECT seq, id, 1, month_at IS NOT NULL FROM usage_log WHERE account = ? AND day_at IS NOT NULL';
    const monthOnly = 'SELECT seq, id, 0, 1 FROM usage_log WHERE account = ? AND month_at IS NOT NULL AND day_at IS NULL';
    for (const text of [inDay, monthOnly]) {
      for (const [seq, id, day, month] of this.raw(text).iterate(accountId) as Iterable<[number, string, number, number]>)
        ids.set(id, seq, day === 1, month === 1);
    }
    return ids;
  }

  /** Statements read as arrays (their own SQL texts: raw mode sticks to a cached statement). */
  private raw(text: string): Database.Statement {
    return this.statements.get(text).raw(true);
  }
}
