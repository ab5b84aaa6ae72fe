/**
 * GET /annonces/feed and /annonces/retirees on SQLite: keyset pages on (changed_at, change_seq), the
 * order of the indexer's writes, as pure functions of the engine-neutral query and whether the
 * precomputed texts are current.
 */
import type { FeedQuery, SortPosition, WithdrawnQuery } from '../../../core/query/query.js';
import { filterConditions, ftsMatchExpression, mergeParts, siteConditions, type Param, type Sql, type SqlPart } from './filter-sql.js';
import { PAGE_COLUMNS, PAGE_COLUMNS_PRESENTED, textOf } from '../rows/columns.js';

/**
 * How the page's rows are read: `indexed` (rowid, id, change position and the Annonce text, from
 * ix_feed's entries), `rows` (PAGE_COLUMNS, or PAGE_COLUMNS_PRESENTED when the texts are current).
 */
export type ChangePageSql = Sql & { read: 'indexed' | 'rows' };

export function buildFeedSql(query: FeedQuery, presented: boolean): ChangePageSql {
  const parts = mergeParts(
    { where: ['l.active = 1', 'l.changed_at <= ?'], params: [query.changedUntil] },
    siteConditions(query.scope),
    filterConditions(query.filter),
  );
  if (query.filter.words?.length) {
    parts.where.push('l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?)');
    parts.params.push(ftsMatchExpression(query.filter.words));
  }
  return changeOrdered(parts, query.pageSize, query.after, presented, true);
}

export function buildWithdrawnSql(query: WithdrawnQuery, presented: boolean): ChangePageSql {
  const parts = mergeParts({ where: ['l.active = 0', 'l.changed_at <= ?'], params: [query.changedUntil] }, siteConditions(query.scope));
  return changeOrdered(parts, query.pageSize, query.after, presented, false);
}

/**
 * `fromIndex` (the feed): while the texts are current, a page is read like a search page, from
 * ix_feed's entries (changed_at, change_seq, id) and the texts, without the listing rows.
 */
function changeOrdered(parts: SqlPart, pageSize: number, after: SortPosition | null, presented: boolean, fromIndex: boolean): ChangePageSql {
  if (after) {
    parts.where.push('(l.changed_at, l.change_seq) > (?, ?)');
    parts.params.push(...(after as Param[]));
  }
  if (presented && fromIndex) {
    const order = 'ORDER BY l.changed_at, l.change_seq';
    return {
      read: 'indexed',
      params: parts.params,
      sql: `SELECT l.rowid, l.id, l.changed_at, l.change_seq, ${textOf('public_json')} AS public_json
        FROM (SELECT l.rowid AS rowid, l.id AS id, l.changed_at AS changed_at, l.change_seq AS change_seq
          FROM listings l WHERE ${parts.where.join(' AND ')} ${order} LIMIT ${pageSize + 1}) l ${order}`,
    };
  }
  return {
    read: 'rows',
    params: parts.params,
    sql: `SELECT ${presented ? PAGE_COLUMNS_PRESENTED : PAGE_COLUMNS} FROM listings l WHERE ${parts.where.join(' AND ')} ORDER BY l.changed_at, l.change_seq LIMIT ${pageSize + 1}`,
  };
}
