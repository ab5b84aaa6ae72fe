/**
 * Over 300 lines on purpose: one document, every path and its parameters read side by side.
 * The OpenAPI 3.1 document of the API, generated from the zod schemas the routes validate with and
 * answer in (zod 4's JSON Schema output): parameters in their input form (what a caller sends, with
 * bounds and defaults read from the schemas), bodies in their output form. Only the operation table,
 * the headers and the prose are written here; test/api/http/openapi.test.ts checks that the table covers
 * every route of the router and that live answers conform.
 */
import { z } from 'zod';
import { Annonce, AnnonceMapPoint, PriceHistory, SourceRef } from '../../core/model/annonce.js';
import { ErrorBody, FeedBatch, FieldIssue, FlowUnavailable } from '../routes/shared/responses.js';
import { SearchPage, SearchParams } from '../routes/annonces/schema.js';
import { FeedParams } from '../routes/feed/schema.js';
import { WithdrawnAnnonce, WithdrawnBatch, WithdrawnParams } from '../routes/retirees/schema.js';
import { MapAnswer, MapParams } from '../routes/map/schema.js';
import { ClustersAnswer, ClustersParams } from '../routes/clusters/schema.js';
import { StatsAnswer, StatsParams } from '../routes/stats/schema.js';
import { DetailParams, ListingDetail } from '../routes/detail/schema.js';
import { PtzParams } from '../routes/ptz/handler.js';
import { PtzZoneAnswer } from '../routes/ptz/schema.js';
import { PingAnswer } from '../routes/ping/schema.js';
import { SourcesAnswer } from '../routes/sources/schema.js';
import { HealthAnswer } from '../routes/health/schema.js';
import { OpenApiDocument } from '../routes/docs/schema.js';
import { ALERT_COMPONENTS, ALERT_OPERATIONS } from './openapi-alerts.js';

type JsonObject = Record<string, unknown>;

/** Named schemas of `components.schemas`; a schema used inside another becomes a `$ref`. */
const COMPONENTS: Record<string, z.ZodType> = {
  Annonce,
  AnnonceMapPoint,
  PriceHistory,
  SourceRef,
  WithdrawnAnnonce,
  FieldIssue,
  ErrorBody,
  FlowUnavailable,
  SearchPage,
  FeedBatch,
  WithdrawnBatch,
  MapAnswer,
  ListingDetail,
  PtzZoneAnswer,
  PingAnswer,
  SourcesAnswer,
  HealthAnswer,
  OpenApiDocument,
  ClustersAnswer,
  StatsAnswer,
  ...ALERT_COMPONENTS,
};

/** Annonce objects carry `<field>_source` when a value was completed from a duplicate on another site. */
const COMPLETED_FROM = { '^[a-z_]+_source$': { type: 'string', description: 'The site a missing value was completed from.' } };

export type Header = 'rate' | 'quota' | 'unknownSources' | 'etag';

export interface Operation {
  path: string;
  /** GET unless said otherwise (the alerts' writes). */
  method?: 'get' | 'post' | 'delete';
  /** The component of a JSON request body. */
  body?: string;
  /** The success status, 200 unless said otherwise; 204 has no body. */
  status?: 201 | 204;
  summary: string;
  description?: string;
  query?: z.ZodObject;
  pathParams?: z.ZodObject;
  answer: string;
  keyed: boolean;
  /** Error statuses besides 401 (keyed), 429 (keyed and rate-limited) and 503 (every route). */
  errors: number[];
  /** False for a keyed route outside the rate windows (`/ping`): no 429. */
  rateLimited?: boolean;
  headers: Header[];
  cache?: string;
  /** The 503 body when it is not the plain error body. */
  unavailable?: string;
  /** An HTML page rather than a JSON answer. */
  html?: boolean;
}

const LISTING_HEADERS: Header[] = ['rate', 'quota', 'unknownSources'];

const OPERATIONS: Operation[] = [
  {
    path: '/health',
    summary: 'Service state (no key)',
    answer: 'HealthAnswer',
    keyed: false,
    errors: [],
    headers: [],
    unavailable: 'HealthAnswer',
    description: '200 when both stores answer, 503 with `status: degraded` otherwise.',
  },
  { path: '/openapi.json', summary: 'This document (no key)', answer: 'OpenApiDocument', keyed: false, errors: [], headers: ['etag'], cache: 'no-cache' },
  {
    path: '/docs',
    summary: 'This document rendered by Swagger UI, with Authorize and Try it out (no key)',
    answer: '',
    html: true,
    keyed: false,
    errors: [],
    headers: [],
    cache: 'no-cache',
  },
  {
    path: '/ping',
    summary: 'Checks the key and returns the limits of its offer',
    answer: 'PingAnswer',
    keyed: true,
    rateLimited: false,
    // An unknown parameter is refused, as on every route (UNKNOWN_PARAMETER).
    errors: [400],
    headers: ['rate', 'quota'],
    cache: 'no-store',
    description:
      'Consumes nothing, takes nothing from the rate windows and keeps answering when a quota or a rate limit is reached; its headers show the windows and counters as they stand.',
  },
  {
    path: '/sources',
    summary: 'The listing sites (offers with site filters)',
    answer: 'SourcesAnswer',
    keyed: true,
    errors: [400, 402],
    headers: ['rate', 'quota'],
    cache: 'no-store',
  },
  {
    path: '/annonces',
    summary: 'Paginated search',
    query: SearchParams,
    answer: 'SearchPage',
    keyed: true,
    errors: [400, 402, 422],
    headers: LISTING_HEADERS,
    cache: 'no-store',
    description: 'Active listings with at least one photo, one per duplicate group unless `dedup=0`. Follow `next_cursor` rather than `page` beyond page 50.',
  },
  {
    path: '/annonces/feed',
    summary: 'Change feed',
    query: FeedParams,
    answer: 'FeedBatch',
    keyed: true,
    errors: [400, 402, 422],
    headers: LISTING_HEADERS,
    cache: 'no-store',
    unavailable: 'FlowUnavailable',
    description:
      'Site listings one by one in write order. Follow `next_cursor`; empty `items` means up to date: wait a minute or more and call again with the same cursor.',
  },
  {
    path: '/annonces/retirees',
    summary: 'Listings withdrawn from the market',
    query: WithdrawnParams,
    answer: 'WithdrawnBatch',
    keyed: true,
    errors: [400, 402],
    headers: LISTING_HEADERS,
    cache: 'no-store',
    description:
      "Every listing that left the results, whatever the reason (`reason`: retiree, vendue, sous_compromis, archivee, or absent when its site stopped listing it), oldest first, in the feed's envelope; items are Annonce objects with `withdrawn_at` and `reason`.",
  },
  {
    path: '/annonces/map',
    summary: 'Points in a bounding box',
    query: MapParams,
    answer: 'MapAnswer',
    keyed: true,
    errors: [400, 402, 422],
    headers: LISTING_HEADERS,
    cache: 'no-store',
    description: 'At most 2 000 points, the exact `total` and `capped`. Map points count nothing against the listing quotas.',
  },
  {
    path: '/annonces/map/clusters',
    summary: 'Listings of a box counted per web-map tile',
    query: ClustersParams,
    answer: 'ClustersAnswer',
    keyed: true,
    errors: [400, 402, 422],
    headers: LISTING_HEADERS,
    cache: 'no-store',
    description:
      "The map's listings (same filters, sites and grouping) counted per tile of the web-map tiling at `zoom`: exact counts adding up to the map's `total`, centroid, lowest and median price, and the id of a lone listing. The box may cover at most 10 000 tiles at that zoom (422 beyond). Meters as the map: one request, no listing.",
  },
  {
    path: '/stats',
    summary: 'Market statistics of an area (Département offer and above)',
    query: StatsParams,
    answer: 'StatsAnswer',
    keyed: true,
    errors: [400, 402, 422],
    headers: LISTING_HEADERS,
    cache: 'no-store',
    description:
      'Exactly one area (`commune` INSEE code, `cp`, `dept` or `bbox`): active listings and listings withdrawn in the last 90 days, counted, with quartiles of price, price per m², time on market and discount. One request token, no listing; refused with 402 like every keyed route but /ping once a listing quota is reached.',
  },
  {
    path: '/annonces/{source}/{reference}',
    summary: 'One listing',
    pathParams: DetailParams,
    answer: 'ListingDetail',
    keyed: true,
    errors: [400, 402, 404],
    headers: ['rate', 'quota', 'etag'],
    cache: 'no-store',
    description: 'Any active listing of the access period; costs one listing. `price_history.points` for offers with the price series.',
  },
  {
    path: '/ptz/zone',
    summary: 'PTZ zone of a postal code',
    query: PtzParams,
    answer: 'PtzZoneAnswer',
    keyed: true,
    errors: [400, 402, 404],
    headers: ['rate', 'quota', 'etag'],
    cache: 'private, max-age=86400',
    description: 'A successful lookup costs one request token. An unknown postal code is a 404 whose body holds only `error`.',
  },
  ...ALERT_OPERATIONS,
];

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const stringHeader = (description: string) => ({ description, schema: { type: 'string' } });

const HEADERS: JsonObject = {
  'X-Request-Id': stringHeader('Id of the request in the logs (echoed when the request sent a valid one).'),
  'X-Annonces-From': stringHeader('Access start date of the account (YYYY-MM-DD): listings entered the catalogue on or after it.'),
  'X-RateLimit-Limit': integerHeader('Requests allowed per minute.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current minute window; 0 on a 429 RATE_LIMIT_PER_SEC or RATE_LIMIT_PER_MIN.'),
  'X-RateLimit-Reset': integerHeader(
    'UNIX time (seconds) when the minute window resets; on a 429 RATE_LIMIT_PER_SEC or RATE_LIMIT_PER_MIN, when the refused window lets a request through again (the moment Retry-After names).',
  ),
  'X-Quota-Items-Limit': integerHeader('Daily listing quota (unique listings over 24 hours).'),
  'X-Quota-Items-Used': integerHeader('Listings counted over the last 24 hours.'),
  'X-Quota-Requests-Limit': integerHeader('Daily request cap (UTC day).'),
  'X-Quota-Requests-Used': integerHeader('Requests counted today (UTC).'),
  'X-Quota-Mois-Limit': integerHeader('Listing quota of the period; absent for legacy accounts.'),
  'X-Quota-Mois-Used': integerHeader('Listings discovered in the period.'),
  'X-Quota-Mois-Remaining': integerHeader('Listings left in the period.'),
  'X-Quota-Mois-Reset': stringHeader('Start of the next billing period (ISO 8601); absent on the free rolling window.'),
  'X-Unknown-Sources': stringHeader('Unknown site names given in sources or exclude_sources (comma-separated).'),
  'Retry-After': integerHeader('Seconds to wait before retrying.'),
  ETag: stringHeader('Weak validator of the body; send it back in If-None-Match for a 304.'),
  'Cache-Control': stringHeader('How long the answer may be kept.'),
  Allow: stringHeader('The methods the path answers (405).'),
};

const QUOTA_HEADERS = [
  'X-Quota-Items-Limit',
  'X-Quota-Items-Used',
  'X-Quota-Requests-Limit',
  'X-Quota-Requests-Used',
  'X-Quota-Mois-Limit',
  'X-Quota-Mois-Used',
  'X-Quota-Mois-Remaining',
  'X-Quota-Mois-Reset',
];

const ERROR_MEANINGS: Record<number, string> = {
  400: 'BAD_REQUEST: every faulty parameter in `details`. UNKNOWN_PARAMETER: a query parameter the route does not take, each named in `details` with the closest name it takes (`_`, a cache-buster, is always accepted).',
  401: 'API_KEY_MISSING or API_KEY_INVALID.',
  402: 'QUOTA_EXCEEDED (daily), ITEMS_QUOTA (monthly; read the resumption date, do not retry in a loop) or PAID_PLAN_REQUIRED. Once a listing quota is reached every keyed route but /ping answers 402.',
  404: 'NOT_FOUND.',
  409: 'ALERT_LIMIT: the account holds the most alerts its offer allows.',
  413: 'PAYLOAD_TOO_LARGE: the body is above 16 KiB.',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body must be sent with Content-Type: application/json.',
  422: 'UNPROCESSABLE: valid but contradictory values (a minimum above its maximum, a box whose south is above its north).',
  429: 'RATE_LIMIT_PER_SEC, RATE_LIMIT_PER_MIN or RATE_LIMIT_PER_DAY: wait Retry-After seconds (for the first two, until X-RateLimit-Reset).',
  503: 'SERVICE_UNAVAILABLE: a store is momentarily unreachable; retry after Retry-After seconds.',
};

/** Parameters kept without effect for existing calls (docs/upgrading.md: marked, never removed within v1). */
const DEPRECATED_PARAMETERS = new Set(['source']);

/** What each parameter means; its type, bounds and default come from the schemas. */
const PARAMETER_NOTES: Record<string, string> = {
  q: 'Full text over title and description: every word, case- and accent-insensitive.',
  type: 'Kind of property (Appartement, Maison, Terrain...); comma-separated for several.',
  transaction: 'vente or location.',
  ville: 'Cities, comma-separated, at most 8.',
  cp: 'Postal code.',
  dept: 'Department number (2A, 2B, 971...).',
  region: 'Region name.',
  prix_min: 'Minimum price, euros.',
  prix_max: 'Maximum price, euros.',
  prix_m2_min: 'Minimum price per m².',
  prix_m2_max: 'Maximum price per m².',
  surface_min: 'Minimum surface, m² (45.5 or 45,5).',
  surface_max: 'Maximum surface, m².',
  pieces_min: 'Minimum number of rooms.',
  chambres_min: 'Minimum number of bedrooms.',
  annee_min: 'Built in or after this year (unknown years excluded).',
  annee_max: 'Built in or before this year (unknown years excluded).',
  dpe: 'Energy classes A to G: repeated (dpe=A&dpe=B) or comma-separated (dpe=A,B).',
  ges: 'Greenhouse-gas classes A to G, like dpe.',
  updated_since: 'Listings (re-)collected since this ISO 8601 date-time; with sort=recent for incremental watching.',
  created_since: 'Listings published on their site since this ISO 8601 date-time.',
  sources: 'Only these sites (comma-separated ids of GET /sources); offers with site filters.',
  exclude_sources: 'Every site but these (comma-separated); offers with site filters.',
  source: 'Obsolete, without effect; still accepted.',
  sort: 'Order of the results; the listing id breaks ties. distance: nearest first from centre (listings with coordinates only).',
  page: 'Page number; slow beyond 50, follow next_cursor instead.',
  page_size: 'Items per page.',
  cursor: 'The next_cursor of the previous answer (opaque); takes precedence over page.',
  dedup: '0 returns every duplicate; by default one listing per duplicate group.',
  facets:
    'Comma-separated facets to count over the whole query (type, pieces, dpe, prix, surface, source), each without its own filter; adds `total` and `facets` to the answer, at no listing quota.',
  bbox: 'south,west,north,east in decimal degrees; west > east crosses the antimeridian.',
  polygone:
    'Only the listings in this polygon: lat,lon;lat,lon;… (3 to 500 vertices, closed implicitly; edges go the shorter way round, so one may cross the antimeridian; not crossing itself nor winding around a pole).',
  precision: 'Finer cells: the tiles of zoom + precision (0 to 3), within the tile limit.',
  centre: 'lat,lon: with rayon_km, only the listings within that distance of it; the origin of sort=distance.',
  rayon_km: 'Radius around centre, km (above 0, at most 100; great-circle distance).',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Replaces a string-to-number pipe (query integers and decimals) by its number side, which holds the bounds. */
function numbersFromPipes(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonObject }): void {
  const def = ctx.zodSchema._zod.def;
  if (def.type !== 'pipe' || def.out._zod.def.type !== 'number') return;
  const { $schema: _, ...number } = z.toJSONSchema(def.out as z.ZodType, { io: 'output' }) as JsonObject;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, number);
}

function parameters(schema: z.ZodObject, location: 'query' | 'path'): JsonObject[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', override: numbersFromPipes }) as JsonObject;
  const properties = json.properties as Record<string, JsonObject>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    // The value a route uses when the parameter is absent, read from the schema itself.
    const absent = (schema.shape[name] as z.ZodType).safeParse(undefined);
    const withDefault = absent.success && absent.data !== undefined ? { ...property, default: absent.data } : property;
    const repeatable = JSON.stringify(property).includes('"array"');
    const note = PARAMETER_NOTES[name];
    return {
      name,
      in: location,
      ...(note ? { description: note } : {}),
      required: location === 'path' || required.has(name),
      ...(location === 'query' && DEPRECATED_PARAMETERS.has(name) ? { deprecated: true } : {}),
      schema: withDefault,
      ...(repeatable ? { style: 'form', explode: true } : {}),
    };
  });
}

function responses(op: Operation): JsonObject {
  const success = [...(op.keyed ? ['X-Annonces-From'] : []), 'X-Request-Id', ...(op.cache ? ['Cache-Control'] : [])];
  if (op.headers.includes('rate')) success.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
  if (op.headers.includes('quota')) success.push(...QUOTA_HEADERS);
  if (op.headers.includes('unknownSources')) success.push('X-Unknown-Sources');
  if (op.headers.includes('etag')) success.push('ETag');
  const json = (schema: string) => ({ 'application/json': { schema: ref(schema) } });
  const content = op.html ? { 'text/html': { schema: { type: 'string' } } } : json(op.answer);
  const status = op.status ?? 200;
  const answers: JsonObject = {
    [status]: {
      description: status === 201 ? 'Created' : status === 204 ? 'No content' : 'OK',
      headers: headerRefs(success),
      ...(status === 204 ? {} : { content }),
    },
  };
  if (op.headers.includes('etag')) answers[304] = { description: 'Not modified: the ETag sent in If-None-Match is current.', headers: headerRefs(success) };
  const statuses = [...op.errors, ...(op.keyed ? [401] : []), ...(op.keyed && op.rateLimited !== false ? [429] : []), 503].sort();
  for (const status of statuses) {
    const headers = status === 429 || status === 503 ? ['Retry-After', 'X-Request-Id'] : ['X-Request-Id'];
    if (op.keyed && status !== 401) headers.push('X-Annonces-From');
    // The rate windows answer before validation and quotas, so their refusals carry the window.
    if (op.headers.includes('rate') && status !== 401) headers.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
    if (op.cache) headers.push('Cache-Control');
    const body = status === 503 && op.unavailable ? op.unavailable : 'ErrorBody';
    answers[status] = { description: ERROR_MEANINGS[status], headers: headerRefs(headers), content: json(body) };
  }
  answers.default = {
    description: 'Any other error in the same shape (405 METHOD_NOT_ALLOWED with Allow, 500).',
    headers: headerRefs(['X-Request-Id', 'Allow']),
    content: json('ErrorBody'),
  };
  return answers;
}

function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, JsonObject>;
  };
  for (const [id, schema] of Object.entries(schemas)) {
    delete schema.$schema;
    delete schema.$id;
    if (id === 'Annonce' || id === 'WithdrawnAnnonce') schema.patternProperties = COMPLETED_FROM;
  }
  return schemas;
}

export function openApiDocument(version: string): JsonObject {
  const paths: JsonObject = {};
  for (const op of OPERATIONS) {
    const params = [...(op.pathParams ? parameters(op.pathParams, 'path') : []), ...(op.query ? parameters(op.query, 'query') : [])];
    const method = op.method ?? 'get';
    paths[op.path] = {
      ...(paths[op.path] as JsonObject | undefined),
      [method]: {
        operationId: operationId(method, op.path),
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        ...(op.keyed ? {} : { security: [] }),
        ...(params.length ? { parameters: params } : {}),
        ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
        responses: responses(op),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Annonces API',
      version,
      description:
        'JSON API over French real-estate listings. Every operation is a GET (HEAD answers the same headers without a body), except the alerts: POST and DELETE /alertes. ' +
        'Bodies above about 1 KiB are compressed when the request accepts gzip or br.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    paths,
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'The recommended way to send the key.' },
        Bearer: { type: 'http', scheme: 'bearer', description: 'The same key in Authorization: Bearer.' },
      },
    },
  };
}

/** `/annonces/{source}/{reference}` -> `getAnnoncesBySourceByReference`: stable names for generated clients. */
function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((part) => {
      const capitalised = part
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
      return part.startsWith('{') ? capitalised.map((w) => `By${w}`) : capitalised;
    });
  return `${method}${words.join('')}`;
}

/** The router's paths, as OpenAPI writes them, for the coverage test. */
export const DOCUMENTED_PATHS = OPERATIONS.map((op) => op.path);
