/**
 * Opens a store file with the settings every connection of the store uses. WAL mode lets the
 * indexer write from another process while the API reads.
 */
import Database from 'better-sqlite3';

export interface ConnectionOptions {
  /** Page cache of SQLite in MiB (default 256). */
  cacheMiB?: number;
  /** Bytes of the file read through a memory map instead of read() calls, in MiB (SQLite `mmap_size`; default 0). */
  mmapMiB?: number;
}

export function openConnection(file: string, options: ConnectionOptions = {}): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${(options.cacheMiB ?? 256) * 1024}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  if (options.mmapMiB) db.pragma(`mmap_size = ${options.mmapMiB * 1024 * 1024}`);
  return db;
}
