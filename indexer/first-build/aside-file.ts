/**
 * A first build's listings kept aside in a temporary SQLite file (aside-index.ts): each listing as
 * its JSON text, with the block key and status the grouping looks it up by. The file lives in its own
 * temporary directory and is deleted by close(); nothing in it outlives the load.
 *
 * Every call is one short statement (a batch of ids, a few blocks, a page): the caller awaits
 * between them, so the writer lock's renewals run meanwhile.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { blockKeyOf } from '../../src/core/dedup/block-key.js';
import type { StoredListing } from '../../src/core/model/stored.js';

/** Page cache of the file: the grouping reads it in block order, the write in row order. */
const CACHE_MIB = 16;

interface Row {
  rowid: number;
  doc: string;
}

export class AsideFile {
  private readonly db: Database.Database;
  private readonly statements: {
    put: Database.Statement<[string, string | null, number, number | null, string]>;
    get: Database.Statement<[string], Row>;
    count: Database.Statement<[], { n: number }>;
    keysAfter: Database.Statement<[string, number], { block_key: string }>;
    page: Database.Statement<[number, number], Row>;
  };

  private constructor(private readonly dir: string) {
    this.db = new Database(path.join(dir, 'listings.sqlite'));
    // A scratch file: a crash loses nothing the rerun does not read again from the input.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${CACHE_MIB * 1024}`);
    this.db.exec(`CREATE TABLE aside (id TEXT PRIMARY KEY, block_key TEXT, active INTEGER NOT NULL, left_at INTEGER, doc TEXT NOT NULL);
      CREATE INDEX aside_blocks ON aside (block_key, active);`);
    this.statements = {
      put: this.db.prepare(`INSERT INTO aside (id, block_key, active, left_at, doc) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET block_key = excluded.block_key, active = excluded.active, left_at = excluded.left_at, doc = excluded.doc`),
      get: this.db.prepare('SELECT rowid, doc FROM aside WHERE id = ?'),
      count: this.db.prepare('SELECT count(*) AS n FROM aside'),
      keysAfter: this.db.prepare('SELECT DISTINCT block_key FROM aside WHERE block_key > ? AND active = 1 ORDER BY block_key LIMIT ?'),
      page: this.db.prepare('SELECT rowid, doc FROM aside WHERE rowid > ? ORDER BY rowid LIMIT ?'),
    };
  }

  /** A new empty file in a directory of its own under `parent` (the OS's temporary directory by default). */
  static open(parent = tmpdir()): AsideFile {
    const dir = mkdtempSync(path.join(parent, 'annonces-first-build-'));
    try {
      return new AsideFile(dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  put(listings: readonly StoredListing[]): void {
    this.db.transaction(() => {
      for (const listing of listings) {
        // Read from a store, a listing may carry its served text: the write presents it again.
        const { public_json: _, ...kept } = listing;
        const active = listing.status === 'active' ? 1 : 0;
        this.statements.put.run(listing.id, blockKeyOf(listing), active, listing.left_market_at ?? null, JSON.stringify(kept));
      }
    })();
  }

  get(ids: readonly string[]): Map<string, StoredListing> {
    const found = new Map<string, StoredListing>();
    for (const id of ids) {
      const row = this.statements.get.get(id);
      if (row) found.set(id, JSON.parse(row.doc) as StoredListing);
    }
    return found;
  }

  /** The active listings of each block, ids ascending (as Elasticsearch's findBlocks reads them). */
  activeInBlocks(keys: readonly string[]): Map<string, StoredListing[]> {
    const blocks = new Map<string, StoredListing[]>(keys.map((key) => [key, []]));
    if (keys.length === 0) return blocks;
    const rows = this.db
      .prepare<string[], { block_key: string; doc: string }>(
        `SELECT block_key, doc FROM aside WHERE block_key IN (${keys.map(() => '?').join(',')}) AND active = 1 ORDER BY id`,
      )
      .all(...keys);
    for (const row of rows) blocks.get(row.block_key)!.push(JSON.parse(row.doc) as StoredListing);
    return blocks;
  }

  /** The listings of these blocks that left the market at or after `leftSince`. */
  withdrawnInBlocks(keys: readonly string[], leftSince: number): StoredListing[] {
    if (keys.length === 0) return [];
    return this.db
      .prepare<unknown[], { doc: string }>(
        `SELECT doc FROM aside WHERE block_key IN (${keys.map(() => '?').join(',')}) AND active = 0 AND left_at >= ? ORDER BY id`,
      )
      .all(...keys, leftSince)
      .map((row) => JSON.parse(row.doc) as StoredListing);
  }

  /** The distinct block keys of active listings after `after`, ascending. */
  blockKeysAfter(after: string | null, limit: number): string[] {
    return this.statements.keysAfter.all(after ?? '', limit).map((row) => row.block_key);
  }

  count(): number {
    return this.statements.count.get()!.n;
  }

  /** Up to `limit` listings after the row `after` (0: from the first), in the order they were first put. */
  page(after: number, limit: number): { listings: StoredListing[]; last: number } {
    const rows = this.statements.page.all(after, limit);
    return { listings: rows.map((row) => JSON.parse(row.doc) as StoredListing), last: rows.at(-1)?.rowid ?? after };
  }

  /** Closes the file and deletes its directory. */
  close(): void {
    try {
      this.db.close();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
