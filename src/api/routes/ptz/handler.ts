/** GET /ptz/zone?cp=: PTZ zone of a postal code; 404 body holds only `error` (docs/api.md). */
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../../http/state.js';
import { ApiError } from '../../http/errors.js';

export const PtzParams = z.object({
  cp: z.string({ error: 'is required: a postal code of exactly 5 digits' }).regex(/^[0-9]{5}$/, 'must be exactly 5 digits'),
});
export type PtzParams = z.infer<typeof PtzParams>;

export function lookupPtzZone(deps: AppDeps) {
  return async function lookupPtzZoneHandler(ctx: Context, { cp }: PtzParams): Promise<void> {
    const answer = deps.ptz.zoneOf(cp);
    if (!answer) throw new ApiError(404, null, `Unknown postal code ${cp}`);
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = answer;
  };
}
