/**
 * Over 300 lines on purpose: one class whose statements share one transaction discipline, read best whole.
 * Quota counters in the embedded access file. Each call runs whole inside ONE `BEGIN IMMEDIATE`
 * transaction (shared with the other calls of the same turn of the event loop, commit-group.ts), so
 * several API processes on the same file are serialised by SQLite's write lock exactly as the Lua
 * scripts serialise them on Redis. Same rules as src/adapters/redis/usage-counters.ts.
 *
 * `usage_log` holds one row per (account, listing id) counted, with the time the listing entered each
 * window it is counted in (`day_at`, `month_at`; null: not in that window), in the order they were
 * counted: a row's key (`seq`) only grows, so counting a page of new listings appends to the end of
 * the table and its time indexes instead of inserting at 100 random places of an (account, id) tree.
 * Each random insert was a page written to the WAL and checkpointed, which made counting a page of new
 * listings a large share of a feed request's server time.
 *
 * Which ids an account has counted is answered from memory (`CountedIds`: id -> seq, loaded from the
 * table the first time this connection counts for the account, then kept up to date from the rows
 * other connections append, read at the start of each transaction). The table stays the truth: a hit
 * is answered from memory only while no other connection has written for the account since this one
 * applied its own changes to the directory, otherwise it is checked against its row, so a row another
 * connection removed or a counting that rolled back is never taken for a counted listing. This is the
 * layout of an append-only log with an in-memory key directory; its memory grows with the ids counted
 * in the live windows, as Redis's sets do.
 *
 * `usage_windows` holds one row per account with the running counts (so no COUNT(*) over thousands of
 * rows per request), the windows the rows belong to, and the request count of the day.
 */
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import {
  monthWindowTag,
  shouldRoll,
  type Admission,
  type ListingLimits,
  type MonthWindowTag,
  type UsageCounters,
  type UsageRefusal,
  type UsageScope,
  type UsageSnapshot,
} from '../../core/ports/access-store.js';
import { StatementCache } from '../sqlite-shared/statements.js';
import { CommitGroup } from './commit-group.js';
import { CountedIds, type AccountDirectory, type CountedEntry } from './counted-ids.js';
import { openUsageTables } from './usage-schema.js';

/** An account idle this long has no live window left (day 24 h, rolling 30 days, periods at most 31 days). */
const IDLE_MS = 32 * 86_400_000;
const SWEEP_EVERY_MS = 3_600_000;
/** Directory entries of rows removed by other connections tolerated before an account's directory is read again. */
const STALE_ENTRIES_TOLERATED = 10_000;

interface WindowsRow {
  month_kind: MonthWindowTag['kind'];
  month_start: number;
  request_start: number;
  requests: number;
  day_count: number;
  month_count: number;
  /** The counters object that last wrote the account's windows (`writerId`): another one means foreign writes. */
  writer: string | null;
}

type Win = 'day' | 'month';

/** When the oldest listing of each window entered it (null: the window is empty). */
interface Oldest {
  day_oldest: number | null;
  month_oldest: number | null;
}
/** The two oldest entries of the account `w.account`, each from its window's partial index. */
const OLDEST_COLUMNS = `(SELECT MIN(day_at) FROM usage_log WHERE account = w.account AND day_at IS NOT NULL) AS day_oldest,
  (SELECT MIN(month_at) FROM usage_log WHERE account = w.account AND month_at IS NOT NULL) AS month_oldest`;

function snapshotOf(row: WindowsRow, oldest: Oldest): UsageSnapshot {
  return { requests: row.requests, day: row.day_count, dayOldest: oldest.day_oldest, month: row.month_count, monthOldest: oldest.month_oldest };
}

export class SqliteUsageCounters implements UsageCounters {
  private lastSweep = -Infinity;
  private readonly statements: StatementCache;
  /**
   * The one transaction function, made once: better-sqlite3's db.transaction() builds its wrappers
   * at every call, and making one per request was a fifth of an admission's CPU (profiled).
   */
  private readonly transaction: Database.Transaction<(scope: UsageScope, work: (row: WindowsRow) => unknown) => unknown>;
  private readonly commits: CommitGroup;
  private readonly counted: CountedIds;
  /** Written into each account's windows row by every transaction of this object (see CountedIds). */
  private readonly writerId = randomUUID();

  /** `directoryEntries`: bound of the counted ids kept in memory (counted-ids.ts). */
  constructor(db: Database.Database, directoryEntries?: number) {
    openUsageTables(db);
    this.statements = new StatementCache(db);
    this.commits = CommitGroup.of(db);
    this.counted = new CountedIds(this.statements, directoryEntries);
    this.transaction = db.transaction((scope: UsageScope, work: (row: WindowsRow) => unknown): unknown => {
      try {
        this.sweepIdleAccounts(scope.now);
        const row = this.rollWindows(scope);
        if (row.writer !== this.writerId) this.counted.distrust(scope.accountId);
        const result = work(row);
        this.sql(`UPDATE usage_windows SET month_kind = ?, month_start = ?, request_start = ?, requests = ?, day_count = ?, month_count = ?,
          touched_at = ?, writer = ? WHERE account = ?`).run(
          row.month_kind,
          row.month_start,
          row.request_start,
          row.requests,
          row.day_count,
          row.month_count,
          scope.now,
          this.writerId,
          scope.accountId,
        );
        return result;
      } catch (error) {
        // Dropped now, before the next piece of the commit group runs: this piece's savepoint is
        // rolled back, so what it wrote into the directory is not in the table.
        this.counted.reset();
        throw error;
      }
    });
  }

  async admit(scope: UsageScope, admission: Admission): Promise<{ refused: UsageRefusal | null; usage: UsageSnapshot }> {
    if (!admission.take) {
      const checked = this.checkWithoutWriting(scope, admission);
      if (checked) return checked;
    }
    return this.inTransaction(scope, (row) => {
      const refused = this.admissionRefusal(row, admission, scope);
      if (!refused && admission.take) row.requests += 1;
      return { refused, usage: this.snapshot(scope.accountId, row) };
    });
  }

  async consumeListings(scope: UsageScope, ids: readonly string[], limits: ListingLimits) {
    let lastAppended = 0;
    const result = await this.inTransaction(scope, (row) => {
      const refused = this.itemRefusal(row, limits, scope);
      let added = 0;
      if (!refused) {
        const counted = this.counted.of(scope.accountId);
        const insert = this.sql('INSERT INTO usage_log (account, id, day_at, month_at) VALUES (?, ?, ?, ?)');
        const enter = this.sql('UPDATE usage_log SET day_at = ifnull(day_at, ?), month_at = ? WHERE seq = ?');
        const readRow = this.sql('SELECT account, id, day_at, month_at FROM usage_log WHERE seq = ?');
        const inMonth = scope.month !== null;
        for (const id of ids) {
          const known = this.countedRow(readRow, counted, scope.accountId, id);
          if (!known) {
            lastAppended = Number(insert.run(scope.accountId, id, scope.now, inMonth ? scope.now : null).lastInsertRowid);
            counted.set(id, lastAppended, true, inMonth);
            added += 1;
            if (inMonth) row.day_count += 1;
            continue;
          }
          // A listing counts once per window: only ids new to the monthly window (or to the daily one
          // for legacy accounts) are discoveries; a re-delivery costs nothing, daily quota included.
          const isNew = inMonth ? !known.inMonth : !known.inDay;
          if (!isNew) continue;
          added += 1;
          if (inMonth && !known.inDay) row.day_count += 1;
          enter.run(scope.now, inMonth ? scope.now : null, known.seq);
          counted.set(id, known.seq, true, inMonth);
        }
        if (scope.month) row.month_count += added;
        else row.day_count += added;
        // Entries of rows other connections removed are dropped only when met again: a directory well
        // above the rows the windows can hold is read again from the table.
        if (counted.size > 2 * (row.day_count + row.month_count) + STALE_ENTRIES_TOLERATED) this.counted.forget(scope.accountId);
        this.counted.trim(scope.accountId);
      }
      return { refused, added, usage: this.snapshot(scope.accountId, row) };
    });
    // Committed: the directory already holds these rows, so the next transaction need not read them back.
    if (lastAppended > 0) this.counted.seenUpTo(lastAppended);
    return result;
  }

  async readUsage(scope: UsageScope): Promise<UsageSnapshot> {
    // The headers of a map or /sources answer: a plain read unless something must roll or expire.
    return this.readWithoutWriting(scope)?.usage ?? this.inTransaction(scope, (row) => this.snapshot(scope.accountId, row));
  }

  /**
   * A check that takes nothing (the pre-check of a PTZ lookup) answered from a plain read, without
   * the write transaction: when the account's windows need no roll and nothing in them expired, the
   * transaction would write nothing either. Two write transactions per lookup were 41 % of a
   * /ptz/zone request's CPU (npm run bench -- --scenario ptz --profile). Null: something must roll
   * or expire first, so the caller runs the transaction.
   */
  private checkWithoutWriting(scope: UsageScope, admission: Admission): { refused: UsageRefusal | null; usage: UsageSnapshot } | null {
    const read = this.readWithoutWriting(scope);
    return read && { refused: this.admissionRefusal(read.row, admission, scope), usage: read.usage };
  }

  /** The account's windows as a transaction would find them, or null when it would roll or expire something. */
  private readWithoutWriting(scope: UsageScope): { row: WindowsRow; usage: UsageSnapshot } | null {
    // One statement, the windows and both oldest entries: outside a transaction each statement takes
    // and drops the file's read lock (two fcntl calls), so three statements cost twice as much.
    const row = this.sql(`SELECT w.*, ${OLDEST_COLUMNS} FROM usage_windows w WHERE w.account = ?`).get(scope.accountId) as (WindowsRow & Oldest) | undefined;
    if (!row || shouldRoll({ kind: row.month_kind, start: row.month_start }, monthWindowTag(scope.month))) return null;
    if (scope.requestDay.start > row.request_start) return null;
    const usage = snapshotOf(row, row);
    if (usage.dayOldest !== null && usage.dayOldest <= scope.now - scope.dayMs) return null;
    if (scope.month?.kind === 'rolling' && usage.monthOldest !== null && usage.monthOldest <= scope.now - scope.month.ms) return null;
    return { row, usage };
  }

  /** The listing quotas first, then the daily request cap (one rule for the read and the transaction). */
  private admissionRefusal(row: WindowsRow, admission: Admission, scope: UsageScope): UsageRefusal | null {
    const refused = admission.items ? this.itemRefusal(row, admission.items, scope) : null;
    if (refused) return refused;
    return admission.requestLimit !== null && row.requests >= admission.requestLimit ? 'requests' : null;
  }

  /** Rows of an account, for the conformance suite's bounded-growth check. */
  footprint(accountId: string): number {
    // Window entries, as on Redis (a listing in both windows is two).
    return (
      this.sql(`SELECT (SELECT count(*) FROM usage_log WHERE account = ? AND day_at IS NOT NULL)
      + (SELECT count(*) FROM usage_log WHERE account = ? AND month_at IS NOT NULL) AS n`).get(accountId, accountId) as { n: number }
    ).n;
  }

  /** Counted ids held in memory, for the tests of its bound. */
  directoryEntries(): number {
    return this.counted.entries;
  }

  /**
   * The row counting `id` for the account: the directory's entry while no other connection has
   * written for the account since it was made, otherwise the row read back (and the entry corrected).
   */
  private countedRow(readRow: Database.Statement, counted: AccountDirectory, accountId: string, id: string): CountedEntry | null {
    const entry = counted.get(id);
    if (entry === undefined) return null;
    if (entry.trusted) return entry;
    const row = readRow.get(entry.seq) as { account: string; id: string; day_at: number | null; month_at: number | null } | undefined;
    if (!row || row.account !== accountId || row.id !== id) {
      counted.delete(id);
      return null;
    }
    counted.set(id, entry.seq, row.day_at !== null, row.month_at !== null);
    return { seq: entry.seq, inDay: row.day_at !== null, inMonth: row.month_at !== null, trusted: true };
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  private itemRefusal(row: WindowsRow, limits: ListingLimits, scope: UsageScope): 'day' | 'month' | null {
    if (scope.month && limits.month !== null && row.month_count >= limits.month) return 'month';
    return row.day_count >= limits.day ? 'day' : null;
  }

  /**
   * Runs `work` on the account's windows after dropping what expired, in one immediate transaction;
   * `work` changes the counts of `row`, saved at the end.
   */
  private async inTransaction<T>(scope: UsageScope, work: (row: WindowsRow) => T): Promise<T> {
    try {
      // Called inside the group's transaction, the transaction function is a savepoint of its own.
      return await this.commits.run(() => this.transaction(scope, work) as T);
    } catch (error) {
      this.counted.reset();
      throw error;
    }
  }

  private rollWindows(scope: UsageScope): WindowsRow {
    const { accountId, now } = scope;
    const month = monthWindowTag(scope.month);
    let row = this.sql('SELECT * FROM usage_windows WHERE account = ?').get(accountId) as WindowsRow | undefined;
    if (!row) {
      row = {
        month_kind: month.kind,
        month_start: month.start,
        request_start: scope.requestDay.start,
        requests: 0,
        day_count: 0,
        month_count: 0,
        writer: this.writerId,
      };
      this.sql(`INSERT INTO usage_windows (account, month_kind, month_start, request_start, requests, day_count, month_count, touched_at)
        VALUES (?, ?, ?, ?, 0, 0, 0, ?)`).run(accountId, row.month_kind, row.month_start, row.request_start, now);
      this.deleteAccountRows(accountId);
    }
    row.day_count -= this.leaveWindow(accountId, 'day', now - scope.dayMs);
    if (shouldRoll({ kind: row.month_kind, start: row.month_start }, month)) {
      this.leaveWindow(accountId, 'month', Number.MAX_SAFE_INTEGER);
      Object.assign(row, { month_kind: month.kind, month_start: month.start, month_count: 0 });
    }
    if (scope.month?.kind === 'rolling') row.month_count -= this.leaveWindow(accountId, 'month', now - scope.month.ms);
    if (scope.requestDay.start > row.request_start) Object.assign(row, { request_start: scope.requestDay.start, requests: 0 });
    return row;
  }

  /**
   * Takes the listings that entered window `win` at or before `cutoff` out of it: rows in no other
   * window go, the others lose that window's time. Returns how many left the window.
   */
  private leaveWindow(accountId: string, win: Win, cutoff: number): number {
    const [column, other] = win === 'day' ? ['day_at', 'month_at'] : ['month_at', 'day_at'];
    // Most calls find nothing to expire: one read of the window's oldest entry instead of two writes.
    const oldest = this.sql(`SELECT MIN(${column}) FROM usage_log WHERE account = ? AND ${column} IS NOT NULL`).pluck().get(accountId) as number | null;
    if (oldest === null || oldest > cutoff) return 0;
    const gone = this.sql(`DELETE FROM usage_log WHERE account = ? AND ${column} <= ? AND ${other} IS NULL RETURNING id`)
      .pluck()
      .all(accountId, cutoff) as string[];
    this.counted.remove(accountId, gone);
    const left = this.sql(`UPDATE usage_log SET ${column} = NULL WHERE account = ? AND ${column} <= ? RETURNING id`).pluck().all(accountId, cutoff) as string[];
    this.counted.leave(accountId, left, win);
    return gone.length + left.length;
  }

  /** Every row of an account (both partial indexes, so no scan of the other accounts' rows). */
  private deleteAccountRows(accountId: string): void {
    this.sql('DELETE FROM usage_log WHERE account = ? AND day_at IS NOT NULL').run(accountId);
    this.sql('DELETE FROM usage_log WHERE account = ? AND month_at IS NOT NULL').run(accountId);
    this.counted.forget(accountId);
  }

  private snapshot(accountId: string, row: WindowsRow): UsageSnapshot {
    return snapshotOf(row, this.sql(`SELECT ${OLDEST_COLUMNS} FROM (SELECT ? AS account) w`).get(accountId) as Oldest);
  }

  /**
   * Expired rows of an active account go at its next call; this drops, at most hourly, the rows of
   * accounts idle for longer than any window, so the file does not keep dead counters forever.
   */
  private sweepIdleAccounts(now: number): void {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    const cutoff = now - IDLE_MS;
    const idle = this.sql('SELECT account FROM usage_windows WHERE touched_at <= ?').pluck().all(cutoff) as string[];
    for (const accountId of idle) this.deleteAccountRows(accountId);
    this.sql('DELETE FROM usage_windows WHERE touched_at <= ?').run(cutoff);
  }
}
