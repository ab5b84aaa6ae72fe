/**
 * GET /annonces on SQLite: the search statement as a pure function of the engine-neutral query and
 * the plan the store chose (whether the precomputed texts are current, the full-text plan).
 */
import type { ListingFilter, SearchQuery } from '../../../core/query/query.js';
import { filterConditions, mergeParts, scopeConditions, transactionLeads, type Param, type Sql } from './filter-sql.js';
import { SORT_SPECS } from './sorts.js';
import { withText, type TextChoice } from '../text/choice.js';
import { DOC_COLUMNS, PAGE_ROW_COLUMNS, textOf } from '../rows/columns.js';

export interface SearchPlan {
  /**
   * The rows' `public_json` texts are current: a page reads its index entries (rowid, id, sort key)
   * and each text; otherwise its rows and documents.
   */
  presented: boolean;
  /** The full-text plan, when the filter has words. */
  text: TextChoice | null;
}

/** The rows a search page needs: one more than the page (has_more), after the skipped pages in page mode. */
export function searchRowsWanted(query: SearchQuery): number {
  return (query.after ? 0 : (query.page - 1) * query.pageSize) + query.pageSize + 1;
}

/** A search sorted by one of the five sorts: its conditions (its cursor's included), the page's limit and offset. */
export function sortedSearchParts(query: SearchQuery, filter: ListingFilter) {
  const sort = SORT_SPECS[query.sort];
  const parts = mergeParts(
    scopeConditions(query.scope, query.grouped),
    filterConditions(filter, 'l', { transactionLeads: transactionLeads(filter, sort.byTransaction) }),
  );
  const direction = sort.descending ? 'DESC' : 'ASC';
  if (query.after) {
    // Spelled out rather than as the row value `(key, l.id) < (?, ?)`: SQLite does not seek an
    // expression index (ifnull(price, 1e18), ...) on a row value, so every page scanned the index
    // from its start (deep pages of sort=price_asc took seconds). `key <= ?` is a range it seeks.
    const [key, id] = query.after as Param[];
    const op = sort.descending ? '<' : '>';
    parts.where.push(`${sort.expression} ${op}= ? AND (${sort.expression} ${op} ? OR l.id ${op} ?)`);
    parts.params.push(key, key, id);
  }
  return { sort, parts, direction, limit: query.pageSize + 1, offset: query.after ? 0 : (query.page - 1) * query.pageSize };
}

export function buildSearchSql(query: SearchQuery, plan: SearchPlan): Sql {
  const { sort, parts, direction, limit, offset } = sortedSearchParts(query, query.filter);
  const order = `ORDER BY ${sort.expression} ${direction}, l.id ${direction}`;
  // The page's rows are chosen first, without their text, and only then read their text (`l.rowid`
  // of the outer query is the inner query's rowid column). When SQLite sorts (text first, or filters
  // that no index orders), it computes the result columns of every row that enters its top-N heap,
  // so a text in the result columns was read for rows the page then dropped.
  if (plan.presented) {
    // With the texts current, a page needs only what the sort index holds (rowid, id, the sort
    // key: no read of the listing rows when the filters are on the index too) and each text.
    return withText(
      query.filter,
      parts,
      plan.text,
      (from, where) =>
        `SELECT l.rowid, l.id, l.sort_key, ${textOf('public_json')} AS public_json
          FROM (SELECT l.rowid AS rowid, l.id AS id, ${sort.expression} AS sort_key FROM ${from} WHERE ${where} ${order} LIMIT ${limit} OFFSET ${offset}) l
          ORDER BY l.sort_key ${direction}, l.id ${direction}`,
    );
  }
  return withText(
    query.filter,
    parts,
    plan.text,
    (from, where) =>
      `SELECT l.*, ${DOC_COLUMNS}
        FROM (SELECT l.rowid AS rowid, ${PAGE_ROW_COLUMNS} FROM ${from} WHERE ${where} ${order} LIMIT ${limit} OFFSET ${offset}) l ${order}`,
  );
}
