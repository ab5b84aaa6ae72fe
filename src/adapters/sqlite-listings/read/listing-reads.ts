/**
 * Reads of whole listings and of the deduplication's blocks, on any connection to a store file: the
 * store's own (SqliteListingStore delegates to these), or a read-only one in another thread (the
 * indexer groups a first build in a worker thread, indexer/dedup/group-worker.ts, while its load's
 * thread writes).
 */
import Database from 'better-sqlite3';
import type { StoredListing } from '../../../core/model/stored.js';
import type { BlockCandidate } from '../../../core/ports/listing-index.js';
import { FEATURE_COLUMNS, featuresFromValues, featuresOf, PartlyStoredFeatures, type Features } from '../../../core/dedup/features.js';
import { fromRow, type ListingRow } from '../rows/listing-row.js';
import { StatementCache } from '../../sqlite-shared/statements.js';
import { PAGE_COLUMNS } from '../rows/columns.js';
import { buildDetailSql, buildManySql } from './by-id-sql.js';

/**
 * The active listings of a block (findBlockCandidates), from the entries of ix_block alone (schema/tables.ts):
 * id, dedup_key, change_seq, entered_at, rowid, site, own surface. The other features are read from
 * their rowid-keyed table (FEATURES_BY_ROWID_SQL) when the clustering first needs them.
 */
export const BLOCK_CANDIDATES_SQL = `SELECT l.id, l.dedup_key, l.change_seq, l.entered_at, l.rowid, l.source, l.own_surface
  FROM listings l WHERE l.block_key = ? AND l.active = 1`;
const FEATURES_BY_ROWID_SQL = `SELECT ${FEATURE_COLUMNS.join(', ')} FROM dedup_features WHERE rowid = ?`;

export class ListingReads {
  constructor(private readonly statements: StatementCache) {}

  /**
   * Reads on a read-only connection of their own to an existing store file (another thread's). The
   * journal mode (WAL) is the file's, so they see what the writer has committed and never block it.
   */
  static openReadOnly(file: string, cacheMiB: number): { reads: ListingReads; close: () => void } {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma(`cache_size = -${cacheMiB * 1024}`);
    return { reads: new ListingReads(new StatementCache(db)), close: () => db.close() };
  }

  get(id: string): StoredListing | null {
    const { sql, params } = buildDetailSql(id);
    const row = this.statements.get(sql).get(...params) as ListingRow | undefined;
    return row ? fromRow(row) : null;
  }

  getMany(ids: string[]): Map<string, StoredListing> {
    const found = new Map<string, StoredListing>();
    // Chunks stay below SQLite's bound-parameter limit.
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const { sql, params } = buildManySql(chunk);
      const rows = this.statements.get(sql).all(...params) as ListingRow[];
      for (const row of rows) found.set(row.id, fromRow(row));
    }
    return found;
  }

  findBlock(blockKey: string): StoredListing[] {
    const rows = this.statements.get(`SELECT ${PAGE_COLUMNS} FROM listings l WHERE block_key = ? AND active = 1`).all(blockKey) as ListingRow[];
    return rows.map(fromRow);
  }

  /** Through ix_withdrawn_block (schema/tables.ts): only the block's inactive rows of the window are read. */
  withdrawnInBlock(blockKey: string, leftSince: number): StoredListing[] {
    const rows = this.statements
      .get(`SELECT ${PAGE_COLUMNS} FROM listings l WHERE block_key = ? AND active = 0 AND left_market_at >= ?`)
      .all(blockKey, leftSince) as ListingRow[];
    return rows.map(fromRow);
  }

  /** From the entries of ix_block (its leading column), in the index's order. */
  blockKeysAfter(after: string | null, limit: number): string[] {
    return this.statements
      .get('SELECT DISTINCT block_key FROM listings WHERE active = 1 AND block_key > ? ORDER BY block_key LIMIT ?')
      .pluck()
      .all(after ?? '', limit) as string[];
  }

  /**
   * The active listings of a block as candidates, without reading their documents: each one's site
   * and own surface come with it, its other stored features (dedup_features) are read the first time
   * the clustering needs them (PartlyStoredFeatures). A row written before `own_surface` existed
   * gets its features at once, as before: stored ones, or, for a listing written before
   * dedup_features existed, computed from the whole listing (returned too), so the answer is always complete.
   */
  findBlockCandidates(blockKey: string): BlockCandidate[] {
    type Entry = [id: string, dedupKey: string | null, changeSeq: number, enteredAt: number, rowid: number, source: string, ownSurface: number | null];
    const entries = this.statements.get(BLOCK_CANDIDATES_SQL).raw(true).all(blockKey) as Entry[];
    const stored = new Map<string, Features>();
    const unstored: string[] = [];
    for (const [id, , , , rowid, , ownSurface] of entries) {
      if (ownSurface !== null) continue;
      const features = this.storedFeatures(rowid, id);
      if (features) stored.set(id, features);
      else unstored.push(id);
    }
    const whole = unstored.length > 0 ? this.getMany(unstored) : null;
    return entries.map(([id, dedupKey, changeSeq, enteredAt, rowid, source, ownSurface]): BlockCandidate => {
      const candidate = { id, dedup_key: dedupKey, change_seq: changeSeq, catalogue_entered_at: enteredAt, block_key: blockKey };
      if (ownSurface !== null) {
        // 0: the listing has no surface of its own (rows/listing-row.ts toRow).
        return { ...candidate, features: new PartlyStoredFeatures(id, source, ownSurface > 0 ? ownSurface : null, () => this.featuresOfRow(rowid, id)) };
      }
      const listing = whole?.get(id);
      return listing ? { ...candidate, features: featuresOf(listing), listing } : { ...candidate, features: stored.get(id)! };
    });
  }

  /** The whole row (PAGE_COLUMNS) of a rowid. */
  rowOf(rowid: number): ListingRow | undefined {
    return this.statements.get(`SELECT ${PAGE_COLUMNS} FROM listings l WHERE l.rowid = ?`).get(rowid) as ListingRow | undefined;
  }

  /** A listing's stored features, null when it has none. */
  private storedFeatures(rowid: number, id: string): Features | null {
    const values = this.statements.get(FEATURES_BY_ROWID_SQL).raw(true).get(rowid) as unknown[] | undefined;
    return values ? featuresFromValues(id, values, 0) : null;
  }

  /** A listing's features from its stored ones, or from the whole listing when it has none (synchronously: read on demand). */
  private featuresOfRow(rowid: number, id: string): Features {
    const stored = this.storedFeatures(rowid, id);
    if (stored) return stored;
    return featuresOf(fromRow(this.rowOf(rowid)!));
  }
}
