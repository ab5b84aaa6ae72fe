/**
 * Maintenance of a listings store's indexes: statistics for the planner, the full-text index built
 * again, index definitions brought up to date (run by `npm run indexer -- reindex` and bulk loads,
 * never at API start-up).
 */
import type Database from 'better-sqlite3';
import { LISTINGS_SCHEMA, SCHEMA_VERSION } from './tables.js';

/**
 * ANALYZE, then no skip-scan of the (department, type) and transaction indexes. With statistics SQLite
 * may walk such an index for a type alone, department by department (`ANY(department) AND type_norm=?`),
 * and sort what it finds: `type=maison&sort=price_asc` took ten times longer that way than along
 * ix_main_price_asc. `noskipscan` in an index's sqlite_stat1 row is SQLite's own switch for that;
 * `ANALYZE sqlite_schema` makes the connection read the statistics again.
 */
export function analyzeStore(db: Database.Database): void {
  db.exec('ANALYZE');
  db.exec(`UPDATE sqlite_stat1 SET stat = stat || ' noskipscan'
    WHERE (idx LIKE 'ix\\_main\\_dept\\_type\\_%' ESCAPE '\\' OR idx LIKE 'ix\\_main\\_tx\\_%' ESCAPE '\\') AND stat NOT LIKE '%noskipscan%'`);
  db.exec('ANALYZE sqlite_schema');
}

/** Builds the full-text index again from listing_texts (after moveTextsToTheirTable, and by reindex). */
export function rebuildFullText(db: Database.Database): void {
  db.exec("INSERT INTO listings_fts(listings_fts) VALUES ('rebuild')");
}

/**
 * Indexes whose definition in LISTINGS_SCHEMA differs from the store's (a store built by older
 * code) are dropped and built again; `CREATE INDEX IF NOT EXISTS` alone keeps an old definition
 * under the same name. Run by `npm run indexer -- reindex`, never at API start-up (building the
 * search indexes of 1M listings takes minutes). Returns the names of the rebuilt indexes.
 */
export function recreateChangedIndexes(db: Database.Database): string[] {
  const normalise = (sql: string) =>
    sql
      .replace(/IF NOT EXISTS /i, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/;$/, '');
  const stored = new Map(
    (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as { name: string; sql: string }[]).map((row) => [
      row.name,
      normalise(row.sql),
    ]),
  );
  const rebuilt: string[] = [];
  for (const [statement, name] of LISTINGS_SCHEMA.matchAll(/CREATE INDEX IF NOT EXISTS (\w+)[^;]*;/g)) {
    const current = stored.get(name);
    if (current === undefined || current === normalise(statement)) continue;
    db.transaction(() => {
      db.exec(`DROP INDEX ${name}`);
      db.exec(statement);
    })();
    rebuilt.push(name);
  }
  db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  return rebuilt;
}
