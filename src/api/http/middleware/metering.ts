/**
 * Rate limits and quotas around a handler (docs/api.md "Offers, quotas and headers"):
 * - `rateLimit`: per-second and per-minute windows; 429 before anything else runs.
 * - `showUsage`: the same headers read without taking anything (`/ping`).
 * - `meter(kind)`: refuses before the search when the daily request cap (429) or a quota (402) is
 *   reached, then, once the handler succeeded, counts what it cost and sets the quota headers:
 *   the listings it delivered (`ctx.state.delivered`), or the request token of a PTZ lookup (a
 *   400/404 lookup costs nothing, docs/api.md /ptz/zone). A `HEAD` delivers no listing, so it counts
 *   none: it costs its request token only.
 */
import type { Next } from 'koa';
import type { MeterKind } from '../../access/metering.js';
import { callerOf, type ApiContext, type AppDeps } from '../state.js';
import type { Caller } from '../../access/caller.js';

export function rateLimit(deps: AppDeps) {
  return async function rateLimitMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    const headers = await deps.metering.limitRate(callerOf(ctx), deps.now());
    ctx.set(headers);
    await next();
  };
}

/** The rate and quota headers without taking or counting anything: `/ping` reports them and answers past every limit. */
export function showUsage(deps: AppDeps) {
  return async function showUsageMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    const headers = await deps.metering.currentHeaders(callerOf(ctx), deps.now());
    await next();
    ctx.set(headers);
  };
}

export function meter(deps: AppDeps, kind: MeterKind) {
  return async function meterMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    const who = callerOf(ctx);
    await deps.metering.checkQuota(who, kind, deps.now());
    await next();
    if (ctx.status >= 400 || kind === 'ping') return;
    ctx.set(await settle(deps, who, kind, ctx));
  };
}

function settle(deps: AppDeps, who: Caller, kind: MeterKind, ctx: ApiContext): Promise<Record<string, string>> {
  if (kind === 'listings' && ctx.method !== 'HEAD') return deps.metering.recordDelivery(who, ctx.state.delivered ?? [], deps.now());
  if (kind === 'ptz') return deps.metering.recordRequest(who, deps.now());
  return deps.metering.quotaHeaders(who, deps.now());
}
