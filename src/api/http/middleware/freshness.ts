/**
 * Conditional requests on stable resources (detail, PTZ): an `ETag` computed from the body by
 * @koa/etag, and 304 without a body when `If-None-Match` names it (Koa's `ctx.fresh`).
 */
import etag from '@koa/etag';
import type { Next } from 'koa';
import type { ApiContext } from '../state.js';

export function conditional() {
  // Weak: the compressed and plain representations share the tag (they are equivalent).
  const tag = etag({ weak: true });
  return async function conditionalMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    await tag(ctx, next);
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
