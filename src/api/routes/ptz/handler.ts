/** GET /ptz/zone?cp=: PTZ zone of a postal code; 404 body holds only `error` (docs/api.md). */
import type { ApiContext, AppDeps } from '../../http/state.js';
import { ApiError } from '../../http/errors.js';
import type { PtzParams } from './schema.js';

export function lookupPtzZone(deps: AppDeps) {
  return async function lookupPtzZoneHandler(ctx: ApiContext, { cp }: PtzParams): Promise<void> {
    const answer = deps.ptz.zoneOf(cp);
    if (!answer) throw new ApiError(404, null, `Unknown postal code ${cp}`);
    ctx.set('Cache-Control', 'private, max-age=86400');
    ctx.body = answer;
  };
}
