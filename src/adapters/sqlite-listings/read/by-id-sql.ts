/**
 * GET /annonces/:id and the other reads of whole listings by id on SQLite, as pure functions.
 */
import type { Sql } from './filter-sql.js';
import { PAGE_COLUMNS, textOf } from '../rows/columns.js';

/** The whole listing (PAGE_COLUMNS) of an id. */
export function buildDetailSql(id: string): Sql {
  return { sql: `SELECT ${PAGE_COLUMNS} FROM listings l WHERE id = ?`, params: [id] };
}

/**
 * The detail as presented (getPresented): what the route checks, the Annonce text as UTF-8 bytes and
 * the price series (the full series is spliced into the text for the offers that have it).
 */
export const PRESENTED_DETAIL_SQL = `SELECT l.id, l.status, l.entered_at, l.points, ${textOf('public_json')} AS public_json FROM listings l WHERE id = ?`;

/** The whole listings of some ids (at most SQLite's bound-parameter limit: the caller cuts them in chunks). */
export function buildManySql(ids: string[]): Sql {
  return { sql: `SELECT ${PAGE_COLUMNS} FROM listings l WHERE id IN (${ids.map(() => '?').join(',')})`, params: ids };
}
