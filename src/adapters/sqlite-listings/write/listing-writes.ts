/**
 * The store's writes: a listing is its `listings` row, its texts (listing_texts, listing_annonces)
 * and, for an active listing of a block, its duplicate-detection features (dedup_features), all
 * written in one transaction, or in the bulk load's transactions while one runs (write/bulk-load.ts).
 */
import type Database from 'better-sqlite3';
import type { StoredListing } from '../../../core/model/stored.js';
import { FEATURE_COLUMNS, featureValuesOf } from '../../../core/dedup/features.js';
import { BulkLoad } from './bulk-load.js';
import { CommitGroups, LIVE_COMMIT_ROWS } from './commit-groups.js';
import { ROW_COLUMNS, TEXT_COLUMNS } from '../rows/columns.js';
import { toRow, type ListingRow } from '../rows/listing-row.js';
import { StatementCache } from '../../sqlite-shared/statements.js';

/** The named parameters of a rowUpdate: the columns' new values and the rowid. */
function updateValues(row: ListingRow, columns: readonly string[], rowid: number): Record<string, unknown> {
  const values: Record<string, unknown> = { rowid };
  for (const column of columns) values[column] = row[column as keyof ListingRow];
  return values;
}

export class ListingWrites {
  private readonly insertStatement: Database.Statement;
  private readonly storedRow: Database.Statement;
  private readonly storedTexts: Database.Statement;
  private readonly storedAnnonce: Database.Statement;
  /** UPDATE statements by the columns they set (rowUpdate): few sets in practice, bounded anyway. */
  private readonly updates: StatementCache;
  private readonly featureUpsert: Database.Statement;
  private readonly featureDelete: Database.Statement;
  private readonly textsUpsert: Database.Statement;
  private readonly annonceUpsert: Database.Statement;
  /** Set while a load runs (duringBulkLoad): a first build's bulk mode, or a later load's long transactions. */
  private load: BulkLoad | CommitGroups | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly bulkCommitRows?: number,
    private readonly liveCommitRows = LIVE_COMMIT_ROWS,
  ) {
    const columns = ROW_COLUMNS.join(', ');
    this.updates = new StatementCache(db);
    this.insertStatement = db.prepare(`INSERT INTO listings (${columns}) VALUES (${ROW_COLUMNS.map((c) => `@${c}`).join(', ')})`);
    this.storedRow = db.prepare(`SELECT rowid, ${columns} FROM listings WHERE id = ?`);
    this.storedTexts = db.prepare(`SELECT ${TEXT_COLUMNS.join(', ')} FROM listing_texts WHERE rowid = ?`);
    this.storedAnnonce = db.prepare('SELECT public_json FROM listing_annonces WHERE rowid = ?').pluck();
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

  /**
   * The row and its texts; returns its rowid. A listing already stored is updated in the columns
   * whose value changed only: SQLite rewrites the entries of every index that holds a column named
   * in SET (about 35 here, and the full-text index for a title or description), whatever the value.
   * A daily load mostly changes a price, a status or a group: a few indexes, not all of them.
   */
  private writeRow(row: ListingRow): number {
    const stored = this.storedRow.get(row.id) as (ListingRow & { rowid: number }) | undefined;
    if (!stored) {
      const rowid = Number(this.insertStatement.run(row).lastInsertRowid);
      this.textsUpsert.run(rowid, ...TEXT_COLUMNS.map((column) => row[column]));
      this.annonceUpsert.run(rowid, row.public_json);
      return rowid;
    }
    const { rowid } = stored;
    const changed = ROW_COLUMNS.filter((column) => stored[column] !== row[column]);
    if (changed.length > 0) this.rowUpdate('listings', changed).run(updateValues(row, changed, rowid));
    const texts = this.storedTexts.get(rowid) as Pick<ListingRow, (typeof TEXT_COLUMNS)[number]> | undefined;
    if (!texts) this.textsUpsert.run(rowid, ...TEXT_COLUMNS.map((column) => row[column]));
    else {
      const changedTexts = TEXT_COLUMNS.filter((column) => texts[column] !== row[column]);
      if (changedTexts.length > 0) this.rowUpdate('listing_texts', changedTexts).run(updateValues(row, changedTexts, rowid));
    }
    if (this.storedAnnonce.get(rowid) !== row.public_json) this.annonceUpsert.run(rowid, row.public_json);
    return rowid;
  }

  /** `UPDATE table SET` the columns, by rowid; prepared once per set of columns. */
  private rowUpdate(table: 'listings' | 'listing_texts', columns: readonly string[]): Database.Statement {
    return this.updates.get(`UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE rowid = @rowid`);
  }

  /** `rows`: how many listings the write holds (a load commits every so many). */
  inWriteTransaction(write: () => void, rows: number): void {
    if (this.load) this.load.write(write, rows);
    else this.db.transaction(write)();
  }

  /** Commits what a load has written so far (outside one every write is committed already). */
  commitNow(): void {
    this.load?.commit();
  }

  /**
   * A load on an EMPTY store runs in bulk mode (write/bulk-load.ts: indexes, full text and boxes built
   * once at the end); on a store that holds listings, with its indexes live since the API reads the
   * same file meanwhile, in transactions of `liveCommitRows` rows (write/commit-groups.ts).
   */
  async duringBulkLoad<T>(load: () => Promise<T>): Promise<T> {
    if (this.load) return load();
    const running = BulkLoad.start(this.db, this.bulkCommitRows) ?? new CommitGroups(this.db, this.liveCommitRows);
    this.load = running;
    try {
      return await load();
    } finally {
      this.load = null;
      running.end();
    }
  }
}
