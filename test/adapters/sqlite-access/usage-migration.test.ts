/**
 * Access files written by older code keep every count when they are opened by the current code:
 * one row per account, window and id (`usage_items`), or one row per (account, id) in a table keyed
 * by them (`usage_listings`, before the append-only `usage_log`).
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';
import { DAY, HOUR, T0, scopeAt } from '../../conformance/access/scopes.js';

const BIG = { day: 1e6, month: 1e6 };

/** Opens the file with the current code, runs `check` on the store, closes it. */
async function openedNow(file: string, check: (store: SqliteAccessStore) => Promise<void>): Promise<void> {
  const store = SqliteAccessStore.open(file);
  try {
    await check(store);
  } finally {
    await store.close();
  }
}

/** `SELECT count(*)` of `sql` in the file, read with a connection of its own. */
function countIn(file: string, sql: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The running counts per account, unchanged since the first layout. */
const WINDOWS_TABLE = `CREATE TABLE usage_windows (account TEXT PRIMARY KEY, month_kind TEXT NOT NULL, month_start INTEGER NOT NULL,
  request_start INTEGER NOT NULL, requests INTEGER NOT NULL, day_count INTEGER NOT NULL, month_count INTEGER NOT NULL,
  touched_at INTEGER NOT NULL);`;

describe('SQLite access file written with one row per window (before usage_listings)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'access-migration-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is merged into one row per listing on open, with the same counts, oldest entries and later counting', async () => {
    const file = path.join(dir, 'access.sqlite');
    const old = new Database(file);
    // The schema and rows the previous code wrote: 3 listings counted today (day and month), 1 counted
    // two days ago (month only: it has left the rolling day window).
    old.exec(`CREATE TABLE usage_items (account TEXT NOT NULL, win TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,
      PRIMARY KEY (account, win, id)) WITHOUT ROWID;
      CREATE INDEX ix_usage_items_at ON usage_items(account, win, at);
      ${WINDOWS_TABLE}`);
    const start = scopeAt('acct', T0).month as { kind: 'period'; start: number };
    const insert = old.prepare('INSERT INTO usage_items VALUES (?, ?, ?, ?)');
    for (const id of ['a', 'b', 'c']) for (const win of ['day', 'month']) insert.run('acct', win, id, T0);
    insert.run('acct', 'month', 'd', T0 - 2 * DAY);
    old.prepare('INSERT INTO usage_windows VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run('acct', 'period', start.start, T0 - 12 * HOUR, 5, 3, 4, T0);
    old.close();

    await openedNow(file, async (store) => {
      const now = T0 + HOUR;
      expect(await store.readUsage(scopeAt('acct', now))).to.deep.equal({ requests: 5, day: 3, dayOldest: T0, month: 4, monthOldest: T0 - 2 * DAY });
      expect(await store.footprint('acct')).to.equal(7);
      // 'd' is already counted this month (free again); 'e' is new to both windows.
      const result = await store.consumeListings(scopeAt('acct', now), ['a', 'd', 'e'], BIG);
      expect(result).to.deep.include({ refused: null, added: 1 });
      expect(result.usage).to.deep.include({ day: 4, month: 5 });
      // Past the day window: only the month keeps them.
      expect(await store.readUsage(scopeAt('acct', T0 + DAY + 2 * HOUR))).to.deep.include({ day: 0, month: 5 });
    });
    expect(countIn(file, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'usage_items'")).to.equal(0);
  });

  it('copies the rows keyed by (account, id) into the log on open, with the same counts and later counting', async () => {
    const file = path.join(dir, 'access.sqlite');
    const old = new Database(file);
    // The schema and rows of the previous code: 2 listings counted today (both windows), 1 two days
    // ago (month only), for one account; 1 today for another.
    old.exec(`CREATE TABLE usage_listings (account TEXT NOT NULL, id TEXT NOT NULL, day_at INTEGER, month_at INTEGER,
        PRIMARY KEY (account, id)) WITHOUT ROWID;
      CREATE INDEX ix_usage_day ON usage_listings(account, day_at) WHERE day_at IS NOT NULL;
      CREATE INDEX ix_usage_month ON usage_listings(account, month_at) WHERE month_at IS NOT NULL;
      ${WINDOWS_TABLE}`);
    const start = scopeAt('acct', T0).month as { kind: 'period'; start: number };
    const insert = old.prepare('INSERT INTO usage_listings VALUES (?, ?, ?, ?)');
    insert.run('acct', 'a', T0, T0);
    insert.run('acct', 'b', T0, T0);
    insert.run('acct', 'd', null, T0 - 2 * DAY);
    insert.run('other', 'a', T0, T0);
    const windows = old.prepare('INSERT INTO usage_windows VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    windows.run('acct', 'period', start.start, T0 - 12 * HOUR, 7, 2, 3, T0);
    windows.run('other', 'period', start.start, T0 - 12 * HOUR, 1, 1, 1, T0);
    old.close();

    await openedNow(file, async (store) => {
      const now = T0 + HOUR;
      expect(await store.readUsage(scopeAt('acct', now))).to.deep.equal({ requests: 7, day: 2, dayOldest: T0, month: 3, monthOldest: T0 - 2 * DAY });
      expect(await store.footprint('acct')).to.equal(5);
      const result = await store.consumeListings(scopeAt('acct', now), ['a', 'd', 'e'], BIG);
      expect(result).to.deep.include({ refused: null, added: 1 });
      expect(result.usage).to.deep.include({ day: 3, month: 4 });
      expect((await store.consumeListings(scopeAt('other', now), ['a', 'b'], BIG)).added).to.equal(1);
    });
    expect(countIn(file, "SELECT count(*) AS n FROM sqlite_master WHERE name IN ('usage_listings', 'ix_usage_day', 'ix_usage_month')")).to.equal(0);
    expect(countIn(file, 'SELECT count(*) AS n FROM usage_log')).to.equal(6);
  });
});
