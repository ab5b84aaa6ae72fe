/**
 * A page of the feed or the withdrawn flow: its listings counted as delivered, and always a cursor:
 * the last item's position, or the same position when the follower is up to date.
 */
import type { ApiContext, AppDeps } from '../../http/state.js';
import type { JsonText } from '../../../core/model/present.js';
import { JsonTexts, sendJson } from '../../http/json-body.js';
import type { SearchResult, SortPosition } from '../../../core/query/query.js';
import type { StoredListing } from '../../../core/model/stored.js';

export function sendFlowPage(
  ctx: ApiContext,
  deps: AppDeps,
  kind: string,
  result: SearchResult<StoredListing>,
  after: SortPosition | null,
  present: (listing: StoredListing) => JsonText,
): void {
  ctx.state.delivered = result.items.map((l) => l.id);
  const position = result.last ?? after ?? [0, 0];
  sendJson(ctx, {
    items: new JsonTexts(result.items.map(present)),
    count: result.items.length,
    has_more: result.hasMore,
    next_cursor: deps.cursors.encode(kind, position),
  });
}
