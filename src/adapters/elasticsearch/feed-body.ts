/**
 * GET /annonces/feed: active site listings one by one (never grouped, photo or not), in the order of
 * the indexer's writes (changed_at, change_seq), only those changed at or before `changedUntil` (the
 * settle delay). change_seq is unique and monotonic, so it is the tiebreaker; the position is
 * [changed_at, change_seq]. changed_at never goes back from one write to the next
 * (indexer/change-clock.ts), whatever the writers' clocks.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { FeedQuery, SortPosition } from '../../core/query/query.js';
import { PRESENTED_PAGE_FIELDS } from './read-model.js';
import { boolQuery, filterClauses, siteScope } from './query-clauses.js';
import { checkPosition, type SearchBody } from './search-body.js';

export const CHANGE_ORDER: estypes.SortCombinations[] = [{ changed_at: { order: 'asc' } }, { change_seq: { order: 'asc' } }];

export function buildFeedBody(query: FeedQuery): SearchBody {
  const filter = [
    { term: { status: 'active' } },
    { range: { changed_at: { lte: query.changedUntil } } },
    ...siteScope(query.scope),
    ...filterClauses(query.filter),
  ];
  return changeOrderedBody(boolQuery(filter), query.pageSize, query.after);
}

/** Feed and withdrawn flow: keyset on (changed_at, change_seq), the order of the indexer's writes. */
export function changeOrderedBody(query: SearchBody['query'], pageSize: number, after: SortPosition | null): SearchBody {
  const body: SearchBody = { query, sort: CHANGE_ORDER, size: pageSize + 1, track_total_hits: false, ...PRESENTED_PAGE_FIELDS };
  if (after) body.search_after = checkPosition(after, ['number', 'number']);
  return body;
}
