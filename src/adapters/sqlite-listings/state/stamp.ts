/**
 * Which state of the store a connection sees, as a text that changes whenever the store may have:
 * SQLite's `data_version` (changes when ANOTHER connection commits: the indexer) with this
 * connection's `total_changes()` (its own writes). What is kept in memory from the store (text sets,
 * the map's points, map answers) serves only while the stamp it was read under is current.
 */
import type Database from 'better-sqlite3';

export function storeStamp(db: Database.Database): () => string {
  const statement = db.prepare("SELECT data_version || ':' || total_changes() FROM pragma_data_version").pluck();
  return () => statement.get() as string;
}
