/**
 * Listings of the rows a search, feed or withdrawn statement returns (read/search-sql.ts, read/flows-sql.ts):
 * from the precomputed texts when a row has its text, else from its document.
 */
import type { StoredListing } from '../../../core/model/stored.js';
import type { SearchResult, SortPosition } from '../../../core/query/query.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';
import { buildDetailSql } from './by-id-sql.js';
import { textOf } from '../rows/columns.js';
import type { ListingReads } from './listing-reads.js';
import { fromPageRow, fromRow, IndexedPageListing, type ListingRow, type PageRow } from '../rows/listing-row.js';

/** A row of a search page while the texts are current: its index entry's rowid, id and sort key, and its text. */
export interface IndexedPageRow {
  rowid: number;
  id: string;
  sort_key: number;
  public_json: Buffer | null;
}
/** The same for a feed page: the change position instead of a sort key (ix_feed's entries). */
export interface IndexedFeedRow {
  rowid: number;
  id: string;
  changed_at: number;
  change_seq: number;
  public_json: Buffer | null;
}

/** A page out of `rows` (one row more was asked, to learn has_more): its listings, and the position of its last row. */
export function pageOf<R>(
  rows: R[],
  pageSize: number,
  items: (page: R[]) => StoredListing[],
  positionOf: (row: R) => SortPosition,
): SearchResult<StoredListing> {
  const page = rows.slice(0, pageSize);
  const lastRow = page.at(-1);
  return { items: items(page), hasMore: rows.length > pageSize, last: lastRow === undefined ? null : positionOf(lastRow) };
}

/**
 * The listings of a search or feed page from their index entries and texts; the rest of each read
 * from its row if asked. A row without its text (written while the texts were stale) is read whole.
 */
export function indexedItems(reads: ListingReads, page: { rowid: number; id: string; public_json: Buffer | null }[]): StoredListing[] {
  const whole = (row: { rowid: number; id: string }) => {
    const full = reads.rowOf(row.rowid);
    if (!full) throw new Error(`listing ${row.id} left the store after its page was read`);
    return fromRow(full);
  };
  return page.map((row) => (row.public_json === null ? whole(row) : new IndexedPageListing(row.id, row.public_json, () => whole(row))));
}

/** Listings of a result page read as rows: from the precomputed texts when current, else from the documents. */
export function pageListings(statements: StatementCache, rows: (ListingRow | PageRow)[], presented: boolean): StoredListing[] {
  if (!presented) return (rows as ListingRow[]).map(fromRow);
  const readDoc = (id: string) => (statements.get(`SELECT ${textOf('doc')} AS doc FROM listings l WHERE l.id = ?`).get(id) as { doc: string }).doc;
  const fullRow = (id: string) => {
    const { sql, params } = buildDetailSql(id);
    return statements.get(sql).get(...params) as ListingRow;
  };
  return (rows as PageRow[]).map((row) => (row.public_json === null ? fromRow(fullRow(row.id)) : fromPageRow(row, row.public_json, readDoc)));
}
