/**
 * Every route of the API, each one a visible pipeline:
 * authenticate -> rate limit -> validate (typed input) -> offer gate -> meter (quota check, then counting) -> handler.
 * Detail and PTZ answer conditional requests (`ETag`, 304) inside the meter.
 */
import Router from '@koa/router';
import type { AppDeps } from './state.js';
import { authenticate } from './middleware/authenticate.js';
import { meter, rateLimit, showUsage } from './middleware/metering.js';
import { input } from './middleware/validate.js';
import { siteFiltersOffer } from './middleware/site-filters.js';
import { conditional } from './middleware/freshness.js';
import { noParameters } from './middleware/known-parameters.js';
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
import { jsonRequest } from './middleware/json-request.js';
import { AlertIdParams, DeliveriesParams } from '../routes/alertes/schema.js';
import { alertsOffer, createAlert, deleteAlert, listAlerts, listDeliveries, showAlert } from '../routes/alertes/handler.js';
import { docsAsset, docsPage } from '../routes/docs/page.js';

export const BASE_PATH = '/api/v1';

/** Largest JSON body of a write (an alert's filters and URL fit in a few hundred bytes). */
export const MAX_BODY_BYTES = 16 * 1024;

export function createRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: BASE_PATH });
  const auth = authenticate(deps);
  const limit = rateLimit(deps);

  router.get('/health', health(deps));
  router.get('/openapi.json', conditional(), serveOpenApi(deps));
  router.get('/docs', docsPage());
  router.get('/docs/:file', conditional(), docsAsset());
  router.get('/ping', auth, noParameters(), showUsage(deps), ping(deps));
  router.get('/sources', auth, limit, noParameters(), siteFiltersOffer({ always: true }), meter(deps, 'sources'), listSources(deps));
  // Each `input` parses one route's parameters and hands them, typed, to that route's handler.
  const search = input(SearchParams);
  router.get(
    '/annonces',
    auth,
    limit,
    search.validate,
    siteFiltersOffer({ params: search.params }),
    meter(deps, 'listings'),
    search.handle(searchListings(deps)),
  );
  const feed = input(FeedParams);
  router.get('/annonces/feed', auth, limit, feed.validate, siteFiltersOffer({ params: feed.params }), meter(deps, 'listings'), feed.handle(readFeed(deps)));
  const withdrawn = input(WithdrawnParams);
  router.get(
    '/annonces/retirees',
    auth,
    limit,
    withdrawn.validate,
    siteFiltersOffer({ params: withdrawn.params }),
    meter(deps, 'listings'),
    withdrawn.handle(listWithdrawn(deps)),
  );
  const map = input(MapParams);
  router.get('/annonces/map', auth, limit, map.validate, siteFiltersOffer({ params: map.params }), meter(deps, 'map'), map.handle(mapPoints(deps)));
  const clusters = input(ClustersParams);
  // Before the detail route, whose /annonces/{source}/{reference} would take map/clusters.
  router.get(
    '/annonces/map/clusters',
    auth,
    limit,
    clusters.validate,
    siteFiltersOffer({ params: clusters.params }),
    meter(deps, 'map'),
    clusters.handle(mapClusters(deps)),
  );
  const stats = input(StatsParams);
  router.get(
    '/stats',
    auth,
    limit,
    stats.validate,
    marketStatsOffer(),
    siteFiltersOffer({ params: stats.params }),
    meter(deps, 'stats'),
    stats.handle(marketStats(deps)),
  );
  const detail = input(DetailParams, (ctx) => ctx.params);
  router.get('/annonces/:source/:reference', auth, limit, detail.validate, meter(deps, 'listings'), conditional(), detail.handle(showListing(deps)));
  const ptz = input(PtzParams);
  router.get('/ptz/zone', auth, limit, ptz.validate, meter(deps, 'ptz'), conditional(), ptz.handle(lookupPtzZone(deps)));
  // Alerts, the API's only writes: the offer gate before the body is read.
  const alerts = [auth, limit, alertsOffer(), meter(deps, 'alerts')];
  router.post('/alertes', ...alerts, jsonRequest(MAX_BODY_BYTES), createAlert(deps));
  router.get('/alertes', ...alerts, listAlerts(deps));
  const alert = input(AlertIdParams, (ctx) => ctx.params);
  router.get('/alertes/:id', ...alerts, alert.validate, alert.handle(showAlert(deps)));
  router.delete('/alertes/:id', ...alerts, alert.validate, alert.handle(deleteAlert(deps)));
  const deliveries = input(AlertIdParams.extend(DeliveriesParams.shape), (ctx) => ({ ...ctx.query, ...ctx.params }), DeliveriesParams);
  router.get('/alertes/:id/livraisons', ...alerts, deliveries.validate, deliveries.handle(listDeliveries(deps)));
  return router;
}
