/**
 * GET /stats: market statistics of one area, given as exactly one of `commune` (INSEE code), `cp`,
 * `dept` or `bbox`, with the criteria `type`, `transaction`, `pieces_min`, `pieces_max`.
 */
import { z } from 'zod';
import { TRANSACTION_TYPES } from '../../../core/model/annonce.js';
import { WITHDRAWN_WINDOW_DAYS } from '../../../core/query/aggregates.js';
import { Bbox } from '../map/schema.js';
import { integer, oneOf, siteFilterParams, text } from '../shared/params.js';
import { contradiction } from '../../http/middleware/validate.js';
import { areaParams, areaRules } from '../shared/area-params.js';

const single = { error: 'given more than once; must be given once, as a string' };

export const StatsParams = z
  .object({
    commune: z
      .string(single)
      .trim()
      .regex(/^(\d{5}|2[AB]\d{3})$/i, 'must be an INSEE commune code (5 characters, 2A/2B for Corsica)')
      .optional(),
    cp: z
      .string(single)
      .trim()
      .regex(/^\d{5}$/, 'must be a postal code of 5 digits')
      .optional(),
    dept: text(3),
    bbox: Bbox.optional(),
    ...areaParams,
    type: text(40),
    transaction: oneOf(TRANSACTION_TYPES, 'must be vente or location').optional(),
    pieces_min: integer(0, 1000),
    pieces_max: integer(0, 1000),
    dedup: oneOf(['0', '1', 'false', 'true'], 'must be 0 or 1').optional(),
    ...siteFilterParams,
  })
  .superRefine((params, ctx) => {
    // Exactly one area: a malformed request (400), named by the second area given, or by `commune`.
    const given = (['commune', 'cp', 'dept', 'bbox', 'polygone', 'centre'] as const).filter((key) => params[key] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [given.length ? given[1] : 'commune'],
        message: 'give exactly one area: commune, cp, dept, bbox, polygone or centre with rayon_km',
      });
    }
    areaRules(params, ctx);
    if (params.bbox && params.bbox.south > params.bbox.north) contradiction(ctx, 'bbox', 'south is above north');
    if (params.pieces_min !== undefined && params.pieces_max !== undefined && params.pieces_min > params.pieces_max) {
      contradiction(ctx, 'pieces_min', `pieces_min (${params.pieces_min}) is above pieces_max (${params.pieces_max})`);
    }
  });
export type StatsParams = z.infer<typeof StatsParams>;

const Quartiles = z.object({
  count: z.number().int().min(0).describe('Listings with a known value.'),
  q1: z.number().nullable().describe('First quartile, in the unit of the figure. Null without a known value.'),
  median: z.number().nullable().describe('Median, in the unit of the figure. Null without a known value.'),
  q3: z.number().nullable().describe('Third quartile, in the unit of the figure. Null without a known value.'),
});

export const StatsAnswer = z.object({
  area: z
    .object({
      kind: z.enum(['commune', 'postal_code', 'department', 'bbox', 'polygon', 'circle']).describe('Which area parameter was given.'),
      code: z.string().nullable().describe('INSEE code, postal code or department code. Null for a box, a polygon or a circle.'),
      name: z.string().nullable().describe('Commune or department name. Null for a postal code, a box, a polygon, a circle, or a name not known.'),
      bbox: z
        .object({ south: z.number(), west: z.number(), north: z.number(), east: z.number() })
        .nullable()
        .describe('The box asked for, decimal degrees. Null for the other areas.'),
    })
    .describe('The area the figures cover.'),
  exact: z.boolean().describe('True when the quartiles are exact (SQLite); false for the Elasticsearch estimates (docs/api.md).'),
  active: z
    .object({
      count: z.number().int().min(0).describe('Active listings of the area, one per duplicate group unless dedup=0 (those /annonces returns).'),
      price: Quartiles.describe('Price in euros.'),
      price_per_m2: Quartiles.describe('Price per m² in euros.'),
    })
    .describe('Listings on the market in the area.'),
  withdrawn: z
    .object({
      since: z.string().describe(`Start of the window, the last ${WITHDRAWN_WINDOW_DAYS} days (ISO 8601, UTC).`),
      count: z.number().int().min(0).describe('Site listings that left the market in the window (those /annonces/retirees delivers).'),
      price: Quartiles.describe('Last price before leaving, in euros.'),
      price_per_m2: Quartiles.describe('Last price per m² before leaving, in euros.'),
      days_on_market: Quartiles.describe('From publication (or entry in the catalogue) to leaving, in days.'),
      discount_percent: Quartiles.describe('(first price - last price) / first price x 100; positive when the price went down.'),
    })
    .describe('Site listings of the area that left the market in the window.'),
});
