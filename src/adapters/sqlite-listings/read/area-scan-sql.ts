/**
 * A search in a polygon or a circle (`polygone`, `centre` with `rayon_km`), sorted by one of the five
 * sorts, looked for first along the sort's own index: the first `cap` entries the other filters keep,
 * in the page's order, each tested against the area. When the area holds a fair share of those
 * listings (a city, a district), the page is among them and no more than the page is read; otherwise
 * the store asks the R*Tree-led statement of search-sql.ts, which reads every listing of the area's
 * boxes and suits the small areas. Either way the page is exact: the area is only a filter on rows
 * already in the page's order.
 */
import type { SearchQuery } from '../../../core/query/query.js';
import type { Sql } from './filter-sql.js';
import { sortedSearchParts } from './search-sql.js';
import { withinCondition } from './geo-sql.js';
import { textOf } from '../rows/columns.js';

/** The statement, or null for a search it does not serve (no area, words, or a sort by distance). */
export function buildAreaScanSql(query: SearchQuery, cap: number): Sql | null {
  const { area, ...others } = query.filter;
  if (!area || query.distanceFrom || (others.words?.length ?? 0) > 0) return null;
  const { sort, parts, direction, limit, offset } = sortedSearchParts(query, others);
  const order = (alias: string) => `ORDER BY ${alias}.sort_key ${direction}, ${alias}.id ${direction}`;
  // Innermost the index's first entries, then those in the area (their coordinates read from the
  // rows), then the page's texts: read for its rows only.
  const within = withinCondition(area);
  return {
    sql: `SELECT l.rowid, l.id, p.sort_key, ${textOf('public_json')} AS public_json
      FROM (SELECT c.rowid AS rowid, c.id AS id, c.sort_key AS sort_key
        FROM (SELECT l.rowid AS rowid, l.id AS id, ${sort.expression} AS sort_key FROM listings l WHERE ${parts.where.join(' AND ')}
          ORDER BY ${sort.expression} ${direction}, l.id ${direction} LIMIT ${cap}) c
        CROSS JOIN listings l ON l.rowid = c.rowid
        WHERE ${within.where.join(' AND ')} ${order('c')} LIMIT ${limit} OFFSET ${offset}) p
      CROSS JOIN listings l ON l.rowid = p.rowid ${order('p')}`,
    params: [...parts.params, ...within.params],
  };
}
