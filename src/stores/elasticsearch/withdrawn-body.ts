/**
 * GET /annonces/retirees: site listings that left the market (any status but `active`), ordered like
 * the feed by the write that moved them out (changed_at, change_seq), so a mirror following it never
 * misses one even when a backfill carries an old withdrawal date (src/listings/query.ts WithdrawnQuery).
 */
import type { WithdrawnQuery } from '../../listings/query.js';
import { SERIES_EXCLUDED } from './document.js';
import { CHANGE_ORDER } from './feed-body.js';
import { boolQuery, siteScope } from './query-clauses.js';
import { checkPosition, type SearchBody } from './search-body.js';

export function buildWithdrawnBody(query: WithdrawnQuery): SearchBody {
  const filter = [{ range: { changed_at: { lte: query.changedUntil } } }, ...siteScope(query.scope)];
  const body: SearchBody = {
    query: boolQuery(filter, [{ term: { status: 'active' } }]),
    sort: CHANGE_ORDER,
    size: query.pageSize + 1,
    track_total_hits: false,
    _source: SERIES_EXCLUDED,
  };
  if (query.after) body.search_after = checkPosition(query.after, ['number', 'number']);
  return body;
}
