/**
 * GET /annonces/retirees: site listings that left the market (any status but `active`), ordered like
 * the feed by the write that moved them out (changed_at, change_seq), so a mirror following it never
 * misses one even when a backfill carries an old withdrawal date (src/core/query/query.ts WithdrawnQuery).
 */
import type { WithdrawnQuery } from '../../core/query/query.js';
import { changeOrderedBody } from './feed-body.js';
import { boolQuery, siteScope } from './query-clauses.js';
import { ABSENT_LOADS_FIELD, PRESENTED_PAGE_FIELDS } from './read-model.js';
import type { SearchBody } from './search-body.js';

export function buildWithdrawnBody(query: WithdrawnQuery): SearchBody {
  const filter = [{ range: { changed_at: { lte: query.changedUntil } } }, ...siteScope(query.scope)];
  const body = changeOrderedBody(boolQuery(filter, [{ term: { status: 'active' } }]), query.pageSize, query.after);
  // Beside the status, whether the listing was withdrawn for its absence (its item's `reason`).
  return { ...body, docvalue_fields: [...PRESENTED_PAGE_FIELDS.docvalue_fields, ABSENT_LOADS_FIELD] };
}
