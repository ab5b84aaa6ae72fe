/** GET /annonces/map/clusters: the map's parameters plus `zoom`, the web-map tiling's zoom level (0 to 20). */
import { z } from 'zod';
import { MAX_CLUSTER_TILES, MAX_CLUSTER_ZOOM, tilesCovered } from '../../../core/query/aggregates.js';
import { contradiction } from '../../http/middleware/validate.js';
import { MapParamsShape, mapRules } from '../map/schema.js';
import { integer } from '../shared/params.js';
import { AnnonceMapPoint } from '../../../core/model/annonce.js';

/** Most levels `precision` refines the cells by. */
export const MAX_CLUSTER_PRECISION = 3;

export const ClustersParams = MapParamsShape.extend({
  zoom: z
    .string({
      error: (issue) =>
        issue.input === undefined ? `is required: an integer from 0 to ${MAX_CLUSTER_ZOOM}` : 'given more than once; must be given once, as a string',
    })
    .trim()
    .regex(/^\d{1,2}$/, `must be an integer from 0 to ${MAX_CLUSTER_ZOOM}`)
    .transform(Number)
    .pipe(z.number().int().max(MAX_CLUSTER_ZOOM, `must be <= ${MAX_CLUSTER_ZOOM}`)),
  /** Finer cells: tiles of zoom + precision, for a map that wants more, smaller clusters at its zoom. */
  precision: integer(0, MAX_CLUSTER_PRECISION).transform((v) => v ?? 0),
}).superRefine((params, ctx) => {
  mapRules(params, ctx);
  const cellZoom = params.zoom + params.precision;
  const tiles = tilesCovered(params.bbox, cellZoom);
  if (tiles > MAX_CLUSTER_TILES) {
    const field = params.precision > 0 ? 'precision' : 'zoom';
    contradiction(ctx, field, `the box covers ${tiles} tiles at zoom ${cellZoom}, at most ${MAX_CLUSTER_TILES}: lower the ${field} or narrow the box`);
  }
});
export type ClustersParams = z.infer<typeof ClustersParams>;

export const ClusterCell = z.object({
  zoom: z.number().int().describe('Zoom level of the tile (the one asked for).'),
  x: z.number().int().describe('Tile column at this zoom (slippy-map tiling, 0 at 180° W).'),
  y: z.number().int().describe('Tile row at this zoom (0 at the north).'),
  count: z.number().int().min(1).describe('Listings of the box in this tile, exactly.'),
  latitude: z.number().describe('Latitude of the centroid of the listings of the tile, decimal degrees.'),
  longitude: z.number().describe('Longitude of the centroid of the listings of the tile, decimal degrees.'),
  price_min: z.number().nullable().describe('Lowest known price of the tile, in euros. Null when no price is known there.'),
  price_median: z
    .number()
    .nullable()
    .describe('Median of the known prices, in euros (exact on SQLite; within the documented bound on Elasticsearch). Null when no price is known there.'),
  id: z.string().nullable().describe("The listing's `source:reference` when the tile holds one listing (for GET /annonces/{source}/{reference}), else null."),
  bounds: z
    .object({ south: z.number(), west: z.number(), north: z.number(), east: z.number() })
    .describe("The box of the tile's listings: their lowest and highest latitudes and longitudes (to zoom a map onto them)."),
  point: AnnonceMapPoint.nullable().describe("The lone listing's map point (as GET /annonces/map gives it) when the tile holds one listing, else null."),
});

export const ClustersAnswer = z.object({
  bbox: z
    .object({ south: z.number(), west: z.number(), north: z.number(), east: z.number() })
    .describe('The box asked for; west > east crosses the antimeridian.'),
  zoom: z.number().int().describe('The zoom asked for.'),
  precision: z.number().int().min(0).max(MAX_CLUSTER_PRECISION).describe('The levels the cells refine the zoom by: the cells are tiles of zoom + precision.'),
  total: z.number().int().min(0).describe("Every listing in the box: the sum of the counts, and the map's `total` for the same query."),
  cells: z.array(ClusterCell).describe('The non-empty tiles, north to south, then west to east.'),
});
