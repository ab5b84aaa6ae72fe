/** GET /annonces/retirees: listings that left the market, oldest first, with `withdrawn_at` and `reason`. */
import type { Context } from 'koa';
import type { AppDeps } from '../../http/state.js';
import { withdrawnJson } from '../../../core/model/present.js';
import { JsonTexts, sendJson } from '../../http/json-body.js';
import { decodeCursorParam } from '../shared/cursor-param.js';
import { requestScope } from '../shared/scope.js';
import type { WithdrawnParams } from './schema.js';

const CURSOR_KIND = 'retirees';

export function listWithdrawn(deps: AppDeps) {
  return async function listWithdrawnHandler(ctx: Context, params: WithdrawnParams): Promise<void> {
    const after = params.cursor ? decodeCursorParam(deps.cursors, CURSOR_KIND, params.cursor) : null;
    const result = await deps.listings.withdrawn({
      scope: requestScope(ctx, params, deps.sites),
      changedUntil: deps.now() - deps.feedSettleMs,
      pageSize: params.page_size,
      after,
    });
    ctx.state.delivered = result.items.map((l) => l.id);
    const position = result.last ?? after ?? [0, 0];
    sendJson(ctx, {
      items: new JsonTexts(result.items.map(withdrawnJson)),
      count: result.items.length,
      has_more: result.hasMore,
      next_cursor: deps.cursors.encode(CURSOR_KIND, position),
    });
  };
}
