/**
 * The area parameters (docs/api.md "Polygons and radius"): `polygone=lat,lon;lat,lon;…` (3 to 500
 * vertices, closed implicitly, not crossing itself) and `centre=lat,lon` with `rayon_km` (above 0, at
 * most 100), turned into the engine-neutral GeoArea (src/core/query/geo.ts).
 */
import { z } from 'zod';
import { MAX_POLYGON_VERTICES, MAX_RADIUS_KM, openRing, polygonProblem, type GeoArea, type LatLon } from '../../../core/query/geo.js';
import { decimal } from './params.js';

const single = 'given more than once; must be given once, as a string';
const coordinate = /^[+-]?\d{1,3}(\.\d{1,12})?$/;

/** `lat,lon` within bounds, or the message saying why not. */
function pointOf(text: string): LatLon | string {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length !== 2 || !parts.every((p) => coordinate.test(p))) return 'must be lat,lon in decimal degrees';
  const [lat, lon] = parts.map(Number);
  if (lat < -90 || lat > 90) return 'latitude must be within -90..90';
  if (lon < -180 || lon > 180) return 'longitude must be within -180..180';
  return { lat, lon };
}

export const polygone = z
  .string(single)
  .max(MAX_POLYGON_VERTICES * 40, `at most ${MAX_POLYGON_VERTICES * 40} characters`)
  .transform((value, ctx) => {
    const texts = value.split(';').filter((s) => s.trim() !== '');
    const points: LatLon[] = [];
    for (const [index, text] of texts.entries()) {
      const point = pointOf(text);
      if (typeof point === 'string') {
        ctx.addIssue({ code: 'custom', message: `vertex ${index + 1}: ${point}` });
        return z.NEVER;
      }
      points.push(point);
    }
    const vertices = openRing(points);
    const problem = polygonProblem(vertices);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return vertices;
  })
  .optional();

export const centre = z
  .string(single)
  .max(60, 'at most 60 characters')
  .transform((value, ctx) => {
    const point = pointOf(value);
    if (typeof point === 'string') {
      ctx.addIssue({ code: 'custom', message: point });
      return z.NEVER;
    }
    return point;
  })
  .optional();

export const rayonKm = decimal(0, MAX_RADIUS_KM).refine((v) => v === undefined || v > 0, 'must be above 0');

export const areaParams = { polygone, centre, rayon_km: rayonKm };

export interface AreaParams {
  polygone?: LatLon[];
  centre?: LatLon;
  rayon_km?: number;
}

/**
 * Rules between the three: a radius needs a centre and excludes a polygon; a centre alone is a
 * malformed area unless `centreAlone` (a search sorted by distance from it).
 */
export function areaRules(params: AreaParams, ctx: z.core.$RefinementCtx, centreAlone = false): void {
  if (params.rayon_km !== undefined && params.polygone !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['rayon_km'], message: 'give polygone or centre with rayon_km, not both' });
  } else if (params.rayon_km !== undefined && params.centre === undefined) {
    ctx.addIssue({ code: 'custom', path: ['rayon_km'], message: 'needs centre=lat,lon' });
  } else if (params.centre !== undefined && params.rayon_km === undefined && !centreAlone) {
    ctx.addIssue({ code: 'custom', path: ['centre'], message: 'needs rayon_km (above 0, at most 100)' });
  }
}

/** The area the parameters give, if any. */
export function areaOf(params: AreaParams): GeoArea | undefined {
  if (params.polygone) return { kind: 'polygon', vertices: params.polygone };
  if (params.centre && params.rayon_km !== undefined) return { kind: 'circle', centre: params.centre, radiusKm: params.rayon_km };
  return undefined;
}
