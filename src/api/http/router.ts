/**
 * Every route of the API, each one a visible pipeline:
 * authenticate -> rate limit -> validate -> offer gate -> meter (quota check, then counting) -> handler.
 * Detail and PTZ answer conditional requests (`ETag`, 304) inside the meter.
 */
import Router from '@koa/router';
import type { AppDeps } from './state.js';
import { authenticate } from './middleware/authenticate.js';
import { meter, rateLimit } from './middleware/metering.js';
import { validate } from './middleware/validate.js';
import { siteFiltersOffer } from './middleware/site-filters.js';
import { conditional } from './middleware/freshness.js';
import { health } from '../routes/health/handler.js';
import { ping } from '../routes/ping/handler.js';
import { listSources } from '../routes/sources/handler.js';
import { SearchParams } from '../routes/annonces/schema.js';
import { searchListings } from '../routes/annonces/handler.js';
import { FeedParams } from '../routes/feed/schema.js';
import { readFeed } from '../routes/feed/handler.js';
import { WithdrawnParams } from '../routes/retirees/schema.js';
import { listWithdrawn } from '../routes/retirees/handler.js';
import { MapParams } from '../routes/map/schema.js';
import { mapPoints } from '../routes/map/handler.js';
import { ClustersParams } from '../routes/clusters/schema.js';
import { mapClusters } from '../routes/clusters/handler.js';
import { StatsParams } from '../routes/stats/schema.js';
import { marketStats, marketStatsOffer } from '../routes/stats/handler.js';
import { DetailParams } from '../routes/detail/schema.js';
import { showListing } from '../routes/detail/handler.js';
import { PtzParams, lookupPtzZone } from '../routes/ptz/handler.js';
import { serveOpenApi } from '../routes/docs/handler.js';
import { docsAsset, docsPage } from '../routes/docs/page.js';

export const BASE_PATH = '/api/v1';

export function createRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: BASE_PATH });
  const auth = authenticate(deps);
  const limit = rateLimit(deps);

  router.get('/health', health(deps));
  router.get('/openapi.json', conditional(), serveOpenApi(deps));
  router.get('/docs', docsPage());
  router.get('/docs/:file', conditional(), docsAsset());
  router.get('/ping', auth, ping(deps));
  const paid = siteFiltersOffer();
  router.get('/sources', auth, limit, siteFiltersOffer({ always: true }), meter(deps, 'sources'), listSources(deps));
  router.get('/annonces', auth, limit, validate(SearchParams), paid, meter(deps, 'listings'), searchListings(deps));
  router.get('/annonces/feed', auth, limit, validate(FeedParams), paid, meter(deps, 'listings'), readFeed(deps));
  router.get('/annonces/retirees', auth, limit, validate(WithdrawnParams), paid, meter(deps, 'listings'), listWithdrawn(deps));
  router.get('/annonces/map', auth, limit, validate(MapParams), paid, meter(deps, 'map'), mapPoints(deps));
  // Before the detail route, whose /annonces/{source}/{reference} would take map/clusters.
  router.get('/annonces/map/clusters', auth, limit, validate(ClustersParams), paid, meter(deps, 'map'), mapClusters(deps));
  router.get('/stats', auth, limit, validate(StatsParams), marketStatsOffer(), paid, meter(deps, 'stats'), marketStats(deps));
  router.get('/annonces/:source/:reference', auth, limit, validate(DetailParams, (ctx) => ctx.params), meter(deps, 'listings'), conditional(), showListing(deps));
  router.get('/ptz/zone', auth, limit, validate(PtzParams), meter(deps, 'ptz'), conditional(), lookupPtzZone(deps));
  return router;
}
