/**
 * The route table: every route of the API, once, in the order the router matches them. The router
 * (router.ts) runs each route's steps then its handler; the OpenAPI document (openapi.ts) describes
 * each from the same entry (route.ts says what a step implies). The alerts are in routes-alerts.ts.
 */
import { health } from '../routes/health/handler.js';
import { HealthAnswer } from '../routes/health/schema.js';
import { serveOpenApi } from '../routes/docs/handler.js';
import { OpenApiDocument } from '../routes/docs/schema.js';
import { docsAsset, docsPage } from '../routes/docs/page.js';
import { ping } from '../routes/ping/handler.js';
import { PingAnswer } from '../routes/ping/schema.js';
import { listSources } from '../routes/sources/handler.js';
import { SourcesAnswer } from '../routes/sources/schema.js';
import { searchListings } from '../routes/annonces/handler.js';
import { SearchPage, SearchParams } from '../routes/annonces/schema.js';
import { readFeed } from '../routes/feed/handler.js';
import { FeedParams } from '../routes/feed/schema.js';
import { listWithdrawn } from '../routes/retirees/handler.js';
import { WithdrawnBatch, WithdrawnParams } from '../routes/retirees/schema.js';
import { mapPoints } from '../routes/map/handler.js';
import { MapAnswer, MapParams } from '../routes/map/schema.js';
import { mapClusters } from '../routes/clusters/handler.js';
import { ClustersAnswer, ClustersParams } from '../routes/clusters/schema.js';
import { marketStats, marketStatsOffer } from '../routes/stats/handler.js';
import { StatsAnswer, StatsParams } from '../routes/stats/schema.js';
import { showListing } from '../routes/detail/handler.js';
import { DetailParams, ListingDetail } from '../routes/detail/schema.js';
import { lookupPtzZone } from '../routes/ptz/handler.js';
import { PtzParams, PtzZoneAnswer } from '../routes/ptz/schema.js';
import { FeedBatch, FlowUnavailable } from '../routes/shared/responses.js';
import { siteFiltersOffer } from './middleware/site-filters.js';
import { openApiDocument } from './openapi.js';
import { defineRoute, type Route, type Step } from './route.js';
import { ALERT_ROUTES } from './routes-alerts.js';

/** The pipeline of the listing routes: a key, the rate windows, the parameters, the site filters, the meter. */
const listing = (meter: 'listings' | 'map'): Step[] => ['key', 'rate', 'input', 'siteFilters', { meter }];
/** The pipeline of the stable resources (detail, PTZ): the 304 inside the meter, so a 304 counts like a 200. */
const stable = (meter: 'listings' | 'ptz'): Step[] => ['key', 'rate', 'input', { meter }, 'conditional'];

export const ROUTES: readonly Route[] = [
  defineRoute({
    path: '/health',
    summary: 'Service state (no key)',
    steps: [],
    answer: HealthAnswer,
    errors: [],
    unavailable: HealthAnswer,
    description: '200 when both stores answer, 503 with `status: degraded` otherwise.',
    handler: health,
  }),
  defineRoute({
    path: '/openapi.json',
    summary: 'This document (no key)',
    steps: ['conditional'],
    answer: OpenApiDocument,
    errors: [],
    cache: 'no-cache',
    // The table describing itself: read when the router is built, once the table exists.
    handler: (deps) => serveOpenApi(openApiDocument(ROUTES, deps.version)),
  }),
  defineRoute({
    path: '/docs',
    summary: 'This document rendered by Swagger UI, with Authorize and Try it out (no key)',
    steps: [],
    answer: 'html',
    errors: [],
    cache: 'no-cache',
    handler: docsPage,
  }),
  // The page's scripts, styles and icon: served with it, not part of the API.
  defineRoute({
    path: '/docs/{file}',
    summary: "The documentation page's files",
    steps: ['conditional'],
    answer: null,
    errors: [],
    undocumented: true,
    handler: docsAsset,
  }),
  defineRoute({
    path: '/ping',
    summary: 'Checks the key and returns the limits of its offer',
    // Outside the rate windows and the meter: its headers show them as they stand.
    steps: ['key', 'input', 'usage'],
    answer: PingAnswer,
    // An unknown parameter is refused, as on every route (UNKNOWN_PARAMETER).
    errors: [400],
    cache: 'no-store',
    description:
      'Consumes nothing, takes nothing from the rate windows and keeps answering when a quota or a rate limit is reached; its headers show the windows and counters as they stand.',
    handler: ping,
  }),
  defineRoute({
    path: '/sources',
    summary: 'The listing sites (offers with site filters)',
    // The site list is a site filter's own data: refused to offers without them whatever is sent.
    steps: ['key', 'rate', 'input', { gate: () => siteFiltersOffer(() => true) }, { meter: 'sources' }],
    answer: SourcesAnswer,
    errors: [400, 402],
    cache: 'no-store',
    handler: listSources,
  }),
  defineRoute({
    path: '/annonces',
    summary: 'Paginated search',
    steps: listing('listings'),
    query: SearchParams,
    answer: SearchPage,
    errors: [400, 402, 422],
    cache: 'no-store',
    description: 'Active listings with at least one photo, one per duplicate group unless `dedup=0`. Follow `next_cursor` rather than `page` beyond page 50.',
    handler: searchListings,
  }),
  defineRoute({
    path: '/annonces/feed',
    summary: 'Change feed',
    steps: listing('listings'),
    query: FeedParams,
    answer: FeedBatch,
    errors: [400, 402, 422],
    cache: 'no-store',
    unavailable: FlowUnavailable,
    description:
      'Site listings one by one in write order. Follow `next_cursor`; empty `items` means up to date: wait a minute or more and call again with the same cursor.',
    handler: readFeed,
  }),
  defineRoute({
    path: '/annonces/retirees',
    summary: 'Listings withdrawn from the market',
    steps: listing('listings'),
    query: WithdrawnParams,
    answer: WithdrawnBatch,
    errors: [400, 402],
    cache: 'no-store',
    description:
      "Every listing that left the results, whatever the reason (`reason`: retiree, vendue, sous_compromis, archivee, or absent when its site stopped listing it), oldest first, in the feed's envelope; items are Annonce objects with `withdrawn_at` and `reason`.",
    handler: listWithdrawn,
  }),
  defineRoute({
    path: '/annonces/map',
    summary: 'Points in a bounding box',
    steps: listing('map'),
    query: MapParams,
    answer: MapAnswer,
    errors: [400, 402, 422],
    cache: 'no-store',
    description: 'At most 2 000 points, the exact `total` and `capped`. Map points count nothing against the listing quotas.',
    handler: mapPoints,
  }),
  // Before the detail route, whose /annonces/{source}/{reference} would take map/clusters.
  defineRoute({
    path: '/annonces/map/clusters',
    summary: 'Listings of a box counted per web-map tile',
    steps: listing('map'),
    query: ClustersParams,
    answer: ClustersAnswer,
    errors: [400, 402, 422],
    cache: 'no-store',
    description:
      "The map's listings (same filters, sites and grouping) counted per tile of the web-map tiling at `zoom`: exact counts adding up to the map's `total`, centroid, lowest and median price, and the id of a lone listing. The box may cover at most 10 000 tiles at that zoom (422 beyond). Meters as the map: one request, no listing.",
    handler: mapClusters,
  }),
  defineRoute({
    path: '/stats',
    summary: 'Market statistics of an area (Département offer and above)',
    steps: ['key', 'rate', 'input', { gate: marketStatsOffer }, 'siteFilters', { meter: 'stats' }],
    query: StatsParams,
    answer: StatsAnswer,
    errors: [400, 402, 422],
    cache: 'no-store',
    description:
      'Exactly one area (`commune` INSEE code, `cp`, `dept` or `bbox`): active listings and listings withdrawn in the last 90 days, counted, with quartiles of price, price per m², time on market and discount. One request token, no listing; refused with 402 like every keyed route but /ping once a listing quota is reached.',
    handler: marketStats,
  }),
  defineRoute({
    path: '/annonces/{source}/{reference}',
    summary: 'One listing',
    steps: stable('listings'),
    pathParams: DetailParams,
    answer: ListingDetail,
    errors: [400, 402, 404],
    cache: 'no-store',
    description: 'Any active listing of the access period; costs one listing. `price_history.points` for offers with the price series.',
    handler: showListing,
  }),
  defineRoute({
    path: '/ptz/zone',
    summary: 'PTZ zone of a postal code',
    steps: stable('ptz'),
    query: PtzParams,
    answer: PtzZoneAnswer,
    errors: [400, 402, 404],
    cache: 'private, max-age=86400',
    description: 'A successful lookup costs one request token. An unknown postal code is a 404 whose body holds only `error`.',
    handler: lookupPtzZone,
  }),
  ...ALERT_ROUTES,
];
