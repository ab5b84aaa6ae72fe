/**
 * GET /annonces/:id and the other reads of whole listings by id on SQLite, as pure functions.
 */
import type { Sql } from './filter-sql.js';
import { PAGE_COLUMNS } from '../rows/columns.js';

/** The whole listing (PAGE_COLUMNS) of an id. */
export function buildDetailSql(id: string): Sql {
  return { sql: `SELECT ${PAGE_COLUMNS} FROM listings l WHERE id = ?`, params: [id] };
}

/** The whole listings of some ids (at most SQLite's bound-parameter limit: the caller cuts them in chunks). */
export function buildManySql(ids: string[]): Sql {
  return { sql: `SELECT ${PAGE_COLUMNS} FROM listings l WHERE id IN (${ids.map(() => '?').join(',')})`, params: ids };
}
