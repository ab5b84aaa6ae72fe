/**
 * What opening a listings store does to its file: the numbered migrations of stores made by older
 * code, run once each and recorded in `PRAGMA user_version`, then the steps every open runs (finish
 * an interrupted bulk load, create what a new file lacks, the listing count, the texts' version of
 * an empty store). Table and index definitions are in schema/tables.ts.
 *
 * Each migration also checks the file's own state before changing it (a column already there, texts
 * already moved): stores made before the migrations were numbered have user_version 0 and run every
 * step once, whatever they already had, and a step that died before its version was recorded runs
 * again harmlessly.
 */
import type Database from 'better-sqlite3';
import { PUBLIC_JSON_VERSION } from '../../../core/model/present.js';
import { LISTING_COUNT_TRIGGERS, LISTINGS_SCHEMA, PUBLIC_JSON_META, SCHEMA_VERSION, schemaTable } from './tables.js';
import { rebuildFullText } from './maintenance.js';
import { recoverBulkLoad } from '../write/bulk-load.js';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'presented text columns (public_json, map_json)', up: addPresentedColumns },
  { version: 2, name: 'own surface column of the block candidates', up: addOwnSurfaceColumn },
  {
    version: 3,
    name: 'texts in listing_texts and listing_annonces (narrow rows)',
    up: (db) => {
      if (!moveTextsToTheirTable(db)) return;
      // The triggers and the full-text table over listing_texts, then its index from the moved texts.
      db.exec(schemaForOpen(db));
      rebuildFullText(db);
    },
  },
  { version: 4, name: 'relisted column (the relistee filter)', up: addRelistedColumn },
  { version: 5, name: 'absence counts of the snapshot loads (absent_loads, absent_at)', up: addAbsenceColumns },
];

/** Runs, in order, the migrations above the file's recorded version, recording each one's version once it ran. */
export function runMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  let version = db.pragma('user_version', { simple: true }) as number;
  for (const migration of migrations) {
    if (migration.version <= version) continue;
    migration.up(db);
    db.pragma(`user_version = ${migration.version}`);
    version = migration.version;
  }
  return version;
}

/** Everything opening a store does to its file (SqliteListingStore's constructor). */
export function openSchema(db: Database.Database): void {
  runMigrations(db);
  // A bulk load that died before building its indexes is finished first (write/bulk-load.ts).
  recoverBulkLoad(db);
  db.exec(schemaForOpen(db));
  ensureListingCount(db);
  markPresentedTextsOfEmptyStore(db, PUBLIC_JSON_VERSION);
  // The layout and index definitions the file was made with; `reindex` brings it to SCHEMA_VERSION.
  db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
}

/**
 * Adds the text columns a store made by older code lacks, marking its texts stale. Runs before
 * moveTextsToTheirTable and LISTINGS_SCHEMA, whose indexes name them; a new file (no table yet) gets
 * them from the schema. A store of schema 4 or older keeps its texts in `listings` until it is
 * converted, so `public_json` is added there.
 */
export function addPresentedColumns(db: Database.Database): void {
  const columns = new Set((db.prepare('PRAGMA table_info(listings)').all() as { name: string }[]).map((c) => c.name));
  if (columns.size === 0) return;
  const presented = columns.has('doc') ? ['public_json', 'map_json'] : ['map_json'];
  const missing = presented.filter((name) => !columns.has(name));
  for (const name of missing) db.exec(`ALTER TABLE listings ADD COLUMN ${name} TEXT`);
  if (missing.length > 0) db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(PUBLIC_JSON_META, 'stale');
}

/**
 * `own_surface`: the surface of an active listing that has a block key, as the duplicate scorer reads
 * it (its OWN surface, not one completed from its group: dedup-features.ts), 0 when it has none; NULL
 * for the other rows, and for rows written before the column existed, whose features are then read
 * whole with the candidates, as before. A store made by older code gets the column here (it goes last);
 * `npm run indexer -- reindex` fills it (SqliteListingStore.rebuildIndexes).
 */
export function addOwnSurfaceColumn(db: Database.Database): void {
  const columns = new Set((db.prepare('PRAGMA table_info(listings)').all() as { name: string }[]).map((c) => c.name));
  if (columns.size > 0 && !columns.has('own_surface')) db.exec('ALTER TABLE listings ADD COLUMN own_surface REAL');
}

/**
 * `relisted`: 1 for a listing that republishes a withdrawn one (indexer/relisting.ts), 0 otherwise.
 * Rows written before the column existed are no relistings: none was ever found before it.
 */
export function addRelistedColumn(db: Database.Database): void {
  const columns = new Set((db.prepare('PRAGMA table_info(listings)').all() as { name: string }[]).map((c) => c.name));
  if (columns.size > 0 && !columns.has('relisted')) db.exec('ALTER TABLE listings ADD COLUMN relisted INTEGER NOT NULL DEFAULT 0');
}

/**
 * `absent_loads`, `absent_at`: the snapshot loads in a row that did not hold the listing and the pass
 * of the last (StoredListing.absent_loads, absent_at), 0 for every row of a store made before: no
 * count has started there. Adding a column with a constant default rewrites no row.
 */
export function addAbsenceColumns(db: Database.Database): void {
  const columns = new Set((db.prepare('PRAGMA table_info(listings)').all() as { name: string }[]).map((c) => c.name));
  if (columns.size === 0) return;
  for (const name of ['absent_loads', 'absent_at']) if (!columns.has(name)) db.exec(`ALTER TABLE listings ADD COLUMN ${name} INTEGER NOT NULL DEFAULT 0`);
}

/** The columns of a store of schema 4 or older that schema 5 keeps in listing_texts, and in listing_annonces. */
const MOVED_TEXT_COLUMNS = ['doc', 'title', 'description'];
const MOVED_ANNONCE_COLUMNS = ['public_json'];

/**
 * Converts a store of schema 4 or older (texts in `listings`) to narrow rows, in one transaction:
 * copies the texts into listing_texts and listing_annonces, drops the triggers and the full-text
 * table that named the old columns, copies the narrow columns into a new table that takes the old
 * one's place, and builds the old table's indexes on it again (as the store had them: `reindex`
 * brings older definitions up to date): the rows are rewritten once, where dropping the four
 * columns rewrites the table once per column.
 * The caller then runs the schema (triggers, the full-text table over listing_texts, the count's
 * triggers) and rebuilds the full-text index (rebuildFullText). True when it converted the store.
 */
export function moveTextsToTheirTable(db: Database.Database): boolean {
  const columns = (db.prepare('PRAGMA table_info(listings)').all() as { name: string }[]).map((c) => c.name);
  if (!columns.includes('doc')) return false;
  const moved = new Set([...MOVED_TEXT_COLUMNS, ...MOVED_ANNONCE_COLUMNS]);
  const narrow = columns.filter((name) => !moved.has(name)).join(', ');
  db.transaction(() => {
    const indexes = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'listings' AND sql IS NOT NULL").pluck().all() as string[];
    db.exec(schemaTable('listing_texts'));
    db.exec(schemaTable('listing_annonces'));
    db.exec(`INSERT INTO listing_texts (rowid, ${MOVED_TEXT_COLUMNS.join(', ')}) SELECT rowid, ${MOVED_TEXT_COLUMNS.join(', ')} FROM listings`);
    db.exec(`INSERT INTO listing_annonces (rowid, ${MOVED_ANNONCE_COLUMNS.join(', ')}) SELECT rowid, ${MOVED_ANNONCE_COLUMNS.join(', ')} FROM listings`);
    for (const trigger of ['listings_ai', 'listings_ad', 'listings_au_text']) db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    db.exec('DROP TABLE IF EXISTS listings_fts_vocab; DROP TABLE IF EXISTS listings_fts');
    db.exec(schemaTable('listings').replace('IF NOT EXISTS listings', 'listings_narrow'));
    db.exec(`INSERT INTO listings_narrow (${narrow}) SELECT ${narrow} FROM listings`);
    db.exec('DROP TABLE listings; ALTER TABLE listings_narrow RENAME TO listings');
    for (const index of indexes) db.exec(index);
    db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  }).immediate();
  return true;
}

/**
 * Creates the count and its triggers when the store lacks them (a new store, or one made by older
 * code: counted once, in the same write transaction as the triggers, so no insert of another
 * connection falls between). A store that has them is only read: opening it takes no write lock.
 */
export function ensureListingCount(db: Database.Database): void {
  const present = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('listing_count', 'listing_count_ai', 'listing_count_ad')").get() as {
    n: number;
  };
  if (present.n === 3) return;
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS listing_count (singleton INTEGER PRIMARY KEY CHECK (singleton = 0), n INTEGER NOT NULL)');
    // Counted again whenever a trigger was missing: inserts made without it are in the table, not in n.
    db.exec('INSERT OR REPLACE INTO listing_count(singleton, n) SELECT 0, count(*) FROM listings');
    db.exec(LISTING_COUNT_TRIGGERS);
  }).immediate();
}

/** A new, empty store starts with the texts of the current presenters. */
export function markPresentedTextsOfEmptyStore(db: Database.Database, currentVersion: number): void {
  if (db.prepare('SELECT 1 FROM listings LIMIT 1').get() !== undefined) return;
  db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(PUBLIC_JSON_META, String(currentVersion));
}

/**
 * LISTINGS_SCHEMA without the indexes that a store holding listings lacks (added by newer code):
 * building one when the API opens the store would take minutes at 1M, so the API opens without it,
 * the queries that use such an index check it exists (StoreState.hasIndex, state/store-state.ts), and
 * `npm run indexer -- reindex` builds it. A new or empty store gets every index at once.
 */
export function schemaForOpen(db: Database.Database): string {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'listings'").get() !== undefined;
  if (!hasTable || db.prepare('SELECT 1 FROM listings LIMIT 1').get() === undefined) return LISTINGS_SCHEMA;
  const existing = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((row) => row.name));
  return LISTINGS_SCHEMA.replace(/CREATE INDEX IF NOT EXISTS (\w+)[^;]*;/g, (statement, name: string) => (existing.has(name) ? statement : ''));
}
