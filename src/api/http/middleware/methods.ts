/**
 * Answers for methods the API does not serve, in the API's JSON error shape: a known HTTP method on
 * an existing path (POST, OPTIONS...) is 405 with `Allow`, a method the server does not implement at
 * all (TRACE, CONNECT...) is 501. Runs after the router; unknown paths stay 404.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { ApiError } from '../errors.js';

/** Methods of HTTP semantics that the API declines (405); any other is not implemented (501). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

export function methodRules(router: Router) {
  return async function methodRulesMiddleware(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined) return;
    const layers = router.match(ctx.path, ctx.method).path;
    const allowed = [...new Set(layers.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) return;
    const allow = { Allow: allowed.join(', ') };
    if (!KNOWN_METHODS.has(ctx.method)) {
      throw new ApiError(501, 'NOT_IMPLEMENTED', `The method ${ctx.method} is not implemented; this API answers ${allow.Allow}.`, {}, allow);
    }
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `The method ${ctx.method} is not allowed on ${ctx.path}; use ${allow.Allow}.`, {}, allow);
  };
}
