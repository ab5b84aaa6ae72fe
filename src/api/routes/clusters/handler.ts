/**
 * GET /annonces/map/clusters: the listings of a map box counted per tile of the web-map tiling at
 * `zoom` (refined by `precision`), with each tile's centroid, prices and the box of its listings.
 * No listing is delivered (a lone tile's id and map point are a map point's), so it meters as the
 * map does (docs/api.md "What is counted").
 */
import type { ApiContext, AppDeps } from '../../http/state.js';
import { toListingFilter } from '../shared/listing-filter.js';
import { requestScope } from '../shared/scope.js';
import type { ClustersParams } from './schema.js';

export function mapClusters(deps: AppDeps) {
  return async function mapClustersHandler(ctx: ApiContext, params: ClustersParams): Promise<void> {
    const { zoom, precision } = params;
    const result = await deps.listings.clusters({
      filter: toListingFilter(params),
      scope: requestScope(ctx, params, deps.sites),
      grouped: params.dedup !== '0' && params.dedup !== 'false',
      bbox: params.bbox,
      zoom: zoom + precision,
    });
    const cells = [...result.cells].sort((a, b) => a.y - b.y || a.x - b.x);
    ctx.body = {
      bbox: params.bbox,
      zoom,
      precision,
      total: result.total,
      cells: cells.map((cell) => ({
        zoom: cell.zoom,
        x: cell.x,
        y: cell.y,
        count: cell.count,
        latitude: cell.lat,
        longitude: cell.lon,
        price_min: cell.priceMin,
        price_median: cell.priceMedian,
        id: cell.id,
        bounds: cell.bounds,
        point: cell.point === null ? null : JSON.parse(String(cell.point)),
      })),
    };
  };
}
