/** Embedded AccessStore: its own SQLite file beside the listings, so counter writes never wait on the indexer. */
import Database from 'better-sqlite3';
import type { AccessHealth, AccessStore } from '../access-store.js';
import { SqliteAccountStore } from './account-store.js';

export class SqliteAccessStore extends SqliteAccountStore implements AccessStore {
  readonly backend = 'sqlite';

  static open(file: string): SqliteAccessStore {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    return new SqliteAccessStore(db);
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
