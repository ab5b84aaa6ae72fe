/**
 * The tables of the quota counters in the access file (their layout is described in
 * usage-counters.ts), and the upgrade of files written with an older layout.
 */
import type Database from 'better-sqlite3';

const USAGE_SCHEMA = `
CREATE TABLE IF NOT EXISTS usage_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, account TEXT NOT NULL, id TEXT NOT NULL, day_at INTEGER, month_at INTEGER
);
CREATE INDEX IF NOT EXISTS ix_usage_log_day ON usage_log(account, day_at) WHERE day_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS ix_usage_log_month ON usage_log(account, month_at) WHERE month_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS usage_windows (
  account TEXT PRIMARY KEY, month_kind TEXT NOT NULL, month_start INTEGER NOT NULL,
  request_start INTEGER NOT NULL, requests INTEGER NOT NULL, day_count INTEGER NOT NULL, month_count INTEGER NOT NULL,
  touched_at INTEGER NOT NULL, writer TEXT
);
`;

/** Creates the tables when missing and brings a file of an older layout to this one. */
export function openUsageTables(db: Database.Database): void {
  db.exec(USAGE_SCHEMA);
  migrateOlderLayouts(db);
  addWriterColumn(db);
}

/**
 * Files of older layouts keep every count: one row per (account, listing) in a WITHOUT ROWID table
 * keyed by (account, id) (`usage_listings`, before `usage_log`), or one row per (account, window, id)
 * (`usage_items`, before that). Their rows are copied into `usage_log`, in one transaction, the first
 * time such a file is opened; a file without them is left alone.
 */
function migrateOlderLayouts(db: Database.Database): void {
  const has = (table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
  if (!has('usage_listings') && !has('usage_items')) return;
  db.transaction(() => {
    if (has('usage_listings')) {
      // Oldest first, so the log keeps roughly the order the listings were counted in.
      db.exec(`INSERT INTO usage_log (account, id, day_at, month_at)
        SELECT account, id, day_at, month_at FROM usage_listings ORDER BY min(ifnull(day_at, month_at), ifnull(month_at, day_at))`);
      db.exec('DROP TABLE usage_listings');
    }
    if (has('usage_items')) {
      db.exec(`INSERT INTO usage_log (account, id, day_at, month_at)
        SELECT account, id, max(CASE WHEN win = 'day' THEN at END), max(CASE WHEN win = 'month' THEN at END)
        FROM usage_items GROUP BY account, id`);
      db.exec('DROP TABLE usage_items');
    }
  }).immediate();
}

/** Files made before `usage_windows.writer`: the column is added, empty (every directory then starts distrusted). */
function addWriterColumn(db: Database.Database): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('usage_windows')").pluck().all() as string[];
  if (!columns.includes('writer')) db.exec('ALTER TABLE usage_windows ADD COLUMN writer TEXT');
}
