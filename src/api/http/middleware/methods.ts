/**
 * Answers for methods the API does not serve, in the API's JSON error shape: any method on an
 * existing path that the path does not serve (POST, OPTIONS, TRACE, PROPFIND...) is 405 with `Allow`
 * (RFC 9110 15.5.6). Node's parser refuses methods it does not know before they reach Koa. Runs after
 * the router; unknown paths stay 404.
 */
import type Router from '@koa/router';
import type { Next } from 'koa';
import type { AppContext, NoExtension, RequestState } from '../state.js';
import { ApiError } from '../errors.js';

export function methodRules(router: Router<RequestState, NoExtension>) {
  return async function methodRulesMiddleware(ctx: AppContext, next: Next): Promise<void> {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const layers = router.match(ctx.path, ctx.method).path;
    const allowed = [...new Set(layers.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) return;
    const allow = allowed.join(', ');
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `The method ${ctx.method} is not allowed on ${ctx.path}; use ${allow}.`, {}, { Allow: allow });
  };
}
