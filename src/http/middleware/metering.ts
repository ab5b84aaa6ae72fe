/**
 * Rate limits and quotas around a handler (SPEC.md Limits):
 * - `rateLimit`: per-second, per-minute and daily request windows; 429 before anything else runs.
 * - `meter(kind)`: refuses with 402 before the search when a quota is exhausted, then counts the
 *   listings the handler delivered (`ctx.state.delivered`) and sets the quota headers.
 */
import type { Context, Next } from 'koa';
import type { MeterKind } from '../../access/metering.js';
import type { AppDeps, Caller } from '../state.js';

export function rateLimit(deps: AppDeps) {
  return async function rateLimitMiddleware(ctx: Context, next: Next): Promise<void> {
    const headers = await deps.metering.limitRate(caller(ctx), deps.now());
    ctx.set(headers);
    await next();
  };
}

export function meter(deps: AppDeps, kind: MeterKind) {
  return async function meterMiddleware(ctx: Context, next: Next): Promise<void> {
    const who = caller(ctx);
    await deps.metering.checkQuota(who, kind, deps.now());
    await next();
    if (ctx.status >= 400) return;
    const headers = kind === 'listings'
      ? await deps.metering.recordDelivery(who, ctx.state.delivered ?? [], deps.now())
      : await deps.metering.quotaHeaders(who, deps.now());
    ctx.set(headers);
  };
}

function caller(ctx: Context): Caller {
  const who = ctx.state.caller as Caller | undefined;
  if (!who) throw new Error('metering needs authenticate before it');
  return who;
}
