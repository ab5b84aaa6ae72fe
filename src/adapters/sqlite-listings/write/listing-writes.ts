/**
 * The store's writes: a listing is its `listings` row, its texts (listing_texts, listing_annonces)
 * and, for an active listing of a block, its duplicate-detection features (dedup_features), all
 * written in one transaction, or in the bulk load's transactions while one runs (write/bulk-load.ts).
 */
import type Database from 'better-sqlite3';
import type { StoredListing } from '../../../core/model/stored.js';
import { FEATURE_COLUMNS, featureValuesOf } from '../../../core/dedup/features.js';
import { BulkLoad } from './bulk-load.js';
import { ROW_COLUMNS, TEXT_COLUMNS } from '../rows/columns.js';
import { toRow, type ListingRow } from '../rows/listing-row.js';

export class ListingWrites {
  private readonly upsertStatement: Database.Statement;
  private readonly featureUpsert: Database.Statement;
  private readonly featureDelete: Database.Statement;
  private readonly textsUpsert: Database.Statement;
  private readonly annonceUpsert: Database.Statement;
  /** Set while a first build runs in bulk mode (duringBulkLoad). */
  private bulk: BulkLoad | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly bulkCommitRows?: number,
  ) {
    const columns = ROW_COLUMNS.join(', ');
    const updates = ROW_COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = excluded.${c}`)
      .join(', ');
    this.upsertStatement = db.prepare(
      `INSERT INTO listings (${columns}) VALUES (${ROW_COLUMNS.map((c) => `@${c}`).join(', ')})
       ON CONFLICT(id) DO UPDATE SET ${updates} RETURNING rowid`,
    );
    this.featureUpsert = db.prepare(`INSERT OR REPLACE INTO dedup_features (rowid, ${FEATURE_COLUMNS.join(', ')})
      VALUES (?, ${FEATURE_COLUMNS.map(() => '?').join(', ')})`);
    this.featureDelete = db.prepare('DELETE FROM dedup_features WHERE rowid = ?');
    this.textsUpsert = db.prepare(`INSERT INTO listing_texts (rowid, ${TEXT_COLUMNS.join(', ')}) VALUES (?, ${TEXT_COLUMNS.map(() => '?').join(', ')})
      ON CONFLICT(rowid) DO UPDATE SET ${TEXT_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`);
    this.annonceUpsert = db.prepare(
      'INSERT INTO listing_annonces (rowid, public_json) VALUES (?, ?) ON CONFLICT(rowid) DO UPDATE SET public_json = excluded.public_json',
    );
  }

  /** `features` false: the stored dedup features stay as they are (a rewrite of group fields only). */
  writeListings(listings: StoredListing[], features: boolean): void {
    this.inWriteTransaction(() => {
      for (const listing of listings) {
        const row = toRow(listing);
        const rowid = this.writeRow(row);
        if (!features) continue;
        // Features are kept for exactly the listings findBlockCandidates can return.
        if (row.active === 1 && row.block_key !== null) this.writeFeatures(rowid, listing);
        else this.featureDelete.run(rowid);
      }
    }, listings.length);
  }

  /** Rows already encoded (toRow), each asked for just before its write. */
  writeRows(count: number, rowAt: (index: number) => ListingRow): void {
    this.inWriteTransaction(() => {
      for (let index = 0; index < count; index++) this.writeRow(rowAt(index));
    }, count);
  }

  /** The stored dedup features of a listing (also the backfill's, schema/backfills.ts). */
  writeFeatures(rowid: number, listing: StoredListing): void {
    this.featureUpsert.run(rowid, ...featureValuesOf(listing));
  }

  /** The row and its texts; returns its rowid. */
  private writeRow(row: ListingRow): number {
    const { rowid } = this.upsertStatement.get(row) as { rowid: number };
    this.textsUpsert.run(rowid, ...TEXT_COLUMNS.map((column) => row[column]));
    this.annonceUpsert.run(rowid, row.public_json);
    return rowid;
  }

  /** `rows`: how many listings the write holds (the bulk load commits every so many). */
  inWriteTransaction(write: () => void, rows: number): void {
    if (this.bulk) this.bulk.write(write, rows);
    else this.db.transaction(write)();
  }

  /** Commits what a bulk load has written so far (outside one every write is committed already). */
  commitNow(): void {
    this.bulk?.commitNow();
  }

  /**
   * A load on an EMPTY store runs in bulk mode (write/bulk-load.ts: indexes, full text and boxes built
   * once at the end); on a store that holds listings, as it is, since the API reads the same file meanwhile.
   */
  async duringBulkLoad<T>(load: () => Promise<T>): Promise<T> {
    const bulk = this.bulk ? null : BulkLoad.start(this.db, this.bulkCommitRows);
    if (!bulk) return load();
    this.bulk = bulk;
    try {
      return await load();
    } finally {
      this.bulk = null;
      bulk.finish();
    }
  }
}
