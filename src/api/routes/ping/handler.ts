/** GET /ping: checks the key and returns the offer's limits; costs nothing, answers past the quota. */
import { callerOf, type ApiContext, type AppDeps } from '../../http/state.js';
import type { PingAnswer } from './schema.js';

export function ping(deps: AppDeps) {
  return async function pingHandler(ctx: ApiContext): Promise<void> {
    const { key, offer } = callerOf(ctx);
    ctx.body = {
      ok: true,
      api_key_name: key.name,
      tier: offer.id,
      rate_limit_per_sec: offer.perSecond,
      rate_limit_per_min: offer.perMinute,
      items_per_day: offer.itemsPerDay,
      server_time: new Date(deps.now()).toISOString(),
    } satisfies PingAnswer;
  };
}
