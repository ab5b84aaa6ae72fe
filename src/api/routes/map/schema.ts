/** GET /annonces/map: `bbox` = south,west,north,east in decimal degrees, plus the /annonces filters. */
import { z } from 'zod';
import { AnnonceMapPoint } from '../../../core/model/annonce.js';
import { boundsInOrder, listingFilterParams } from '../shared/listing-filter.js';
import { oneOf } from '../shared/params.js';
import { contradiction } from '../../http/middleware/validate.js';
import { areaParams, areaRules } from '../shared/area-params.js';

const coordinate = /^[+-]?\d{1,3}(\.\d{1,12})?$/;

export const Bbox = z
  .string({
    error: (issue) =>
      issue.input === undefined ? 'is required: south,west,north,east in decimal degrees' : 'given more than once; must be given once, as a string',
  })
  .max(200, 'at most 200 characters')
  .transform((value, ctx) => {
    const parts = value.split(',').map((s) => s.trim());
    if (parts.length !== 4 || !parts.every((p) => coordinate.test(p))) {
      ctx.addIssue({ code: 'custom', message: 'must be four decimal numbers: south,west,north,east' });
      return z.NEVER;
    }
    const [south, west, north, east] = parts.map(Number);
    const wrong: string[] = [];
    if (south < -90 || south > 90) wrong.push('south must be within -90..90');
    if (north < -90 || north > 90) wrong.push('north must be within -90..90');
    if (west < -180 || west > 180) wrong.push('west must be within -180..180');
    if (east < -180 || east > 180) wrong.push('east must be within -180..180');
    if (wrong.length) {
      ctx.addIssue({ code: 'custom', message: wrong.join('; ') });
      return z.NEVER;
    }
    return { south, west, north, east };
  });

/** The map's parameters without their cross-field rules, for the routes that take them and more (clusters). */
export const MapParamsShape = z.object({
  ...listingFilterParams,
  bbox: Bbox,
  dedup: oneOf(['0', '1', 'false', 'true'], 'must be 0 or 1').optional(),
  ...areaParams,
});

/** The map's cross-field rules: bounds in order, and a box whose south is not above its north. */
export function mapRules(params: z.output<typeof MapParamsShape>, ctx: z.core.$RefinementCtx): void {
  boundsInOrder(params, ctx);
  areaRules(params, ctx);
  // West above east is a box across the antimeridian; south above north is no box at all.
  if (params.bbox.south > params.bbox.north) contradiction(ctx, 'bbox', 'south is above north');
}

export const MapParams = MapParamsShape.superRefine(mapRules);
export type MapParams = z.infer<typeof MapParams>;

export const MapAnswer = z.object({
  bbox: z
    .object({ south: z.number(), west: z.number(), north: z.number(), east: z.number() })
    .describe('The box asked for; west > east crosses the antimeridian.'),
  total: z.number().int().min(0).describe('Every listing in the box, exactly.'),
  capped: z.boolean().describe('True when total is above the points returned (at most 2 000).'),
  sampling: z
    .object({ grid: z.number().int().min(2).describe('Cells per side of the grid the box was cut into.') })
    .nullable()
    .describe(
      'How a capped answer was spread over the box: each cell of a grid x grid cut got points in proportion to its listings (docs/api.md "Map sampling"); null when every listing of the box is returned, or the box is too small to cut.',
    ),
  items: z.array(AnnonceMapPoint).max(2000).describe('At most 2 000 map points of the box.'),
});
