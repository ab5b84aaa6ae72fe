/**
 * GET /stats: number of listings and quartiles of price and price per m² of an area, for the active
 * listings and for those that left the market in the last 90 days. Offers with the `marketStats`
 * capability only (402 otherwise); one request token a call, no listing counted (docs/api.md).
 */
import type { Next } from 'koa';
import { callerOf, type ApiContext, type AppDeps } from '../../http/state.js';
import { ApiError, badRequest } from '../../http/errors.js';
import { DAY_MS, WITHDRAWN_WINDOW_DAYS, type Quartiles, type StatsArea } from '../../../core/query/aggregates.js';
import { loadCommunes } from '../../../core/refdata/communes.js';
import { foldText } from '../../../core/refdata/text.js';
import { requestScope } from '../shared/scope.js';
import { areaOf as shapeOf } from '../shared/area-params.js';
import type { StatsParams } from './schema.js';

/** Before `meter`, as the site-filter gate: a refused request takes no request token. */
export function marketStatsOffer() {
  return async function marketStatsOfferMiddleware(ctx: ApiContext, next: Next): Promise<void> {
    if (!callerOf(ctx).offer.marketStats) {
      throw new ApiError(402, 'PAID_PLAN_REQUIRED', 'Market statistics (/stats) need an offer from 118,80 EUR TTC per month (Département and above).');
    }
    await next();
  };
}

interface AreaAnswer {
  kind: 'commune' | 'postal_code' | 'department' | 'bbox' | 'polygon' | 'circle';
  code: string | null;
  name: string | null;
  bbox: StatsParams['bbox'] | null;
}

function areaOf(params: StatsParams): { area: StatsArea; answer: AreaAnswer } {
  // The schema let exactly one area through.
  const communes = loadCommunes();
  if (params.commune !== undefined) {
    const insee = params.commune.toUpperCase();
    const rows = communes.all.filter((c) => c.insee === insee);
    if (rows.length === 0) throw badRequest([{ field: 'commune', message: 'unknown INSEE commune code' }]);
    const codes = [...new Set(rows.map((c) => c.postalCode))];
    const shared = codes.filter((code) => communes.byPostalCode(code).some((c) => c.insee !== insee));
    return {
      area: {
        kind: 'commune',
        insee,
        postalCodes: codes.filter((code) => !shared.includes(code)),
        sharedPostalCodes: shared,
        cityNames: [foldText(rows[0].name)],
      },
      answer: { kind: 'commune', code: insee, name: rows[0].name, bbox: null },
    };
  }
  if (params.cp !== undefined)
    return { area: { kind: 'postalCode', postalCode: params.cp }, answer: { kind: 'postal_code', code: params.cp, name: null, bbox: null } };
  if (params.dept !== undefined) {
    const department = params.dept.toUpperCase();
    return {
      area: { kind: 'department', department },
      answer: { kind: 'department', code: department, name: communes.departmentName(department) ?? null, bbox: null },
    };
  }
  const shape = shapeOf(params);
  if (shape) return { area: { kind: 'shape', shape }, answer: { kind: shape.kind, code: null, name: null, bbox: null } };
  const bbox = params.bbox!;
  return { area: { kind: 'bbox', bbox }, answer: { kind: 'bbox', code: null, name: null, bbox } };
}

const quartiles = (q: Quartiles) => ({ count: q.count, q1: q.q1, median: q.median, q3: q.q3 });

export function marketStats(deps: AppDeps) {
  return async function marketStatsHandler(ctx: ApiContext, params: StatsParams): Promise<void> {
    const { area, answer } = areaOf(params);
    const since = deps.now() - WITHDRAWN_WINDOW_DAYS * DAY_MS;
    const result = await deps.listings.stats({
      area,
      types: params.type ? params.type.split(',').map(foldText).filter(Boolean) : undefined,
      transaction: params.transaction,
      roomsMin: params.pieces_min,
      roomsMax: params.pieces_max,
      scope: requestScope(ctx, params, deps.sites),
      grouped: params.dedup !== '0' && params.dedup !== 'false',
      withdrawnSince: since,
    });
    ctx.body = {
      area: answer,
      exact: deps.listings.backend === 'sqlite',
      active: { count: result.active.count, price: quartiles(result.active.price), price_per_m2: quartiles(result.active.pricePerM2) },
      withdrawn: {
        since: new Date(since).toISOString(),
        count: result.withdrawn.count,
        price: quartiles(result.withdrawn.price),
        price_per_m2: quartiles(result.withdrawn.pricePerM2),
        days_on_market: quartiles(result.withdrawn.daysOnMarket),
        discount_percent: quartiles(result.withdrawn.discountPercent),
      },
    };
  };
}
