/**
 * The OpenAPI 3.1 document of the API, generated from the route table (routes.ts, the one the router
 * runs) and the zod schemas the routes validate with and answer in (zod 4's JSON Schema output):
 * parameters in their input form (what a caller sends, with bounds and defaults read from the
 * schemas), bodies in their output form. Only the named schemas, the headers and the prose of the
 * parameters and errors are written here; test/api/http/openapi.test.ts checks that live answers conform.
 */
import { z } from 'zod';
import { Annonce, AnnonceMapPoint, PriceHistory, SourceRef } from '../../core/model/annonce.js';
import { ErrorBody, FeedBatch, FieldIssue, FlowUnavailable } from '../routes/shared/responses.js';
import { SearchPage } from '../routes/annonces/schema.js';
import { WithdrawnAnnonce, WithdrawnBatch } from '../routes/retirees/schema.js';
import { MapAnswer } from '../routes/map/schema.js';
import { ClustersAnswer } from '../routes/clusters/schema.js';
import { StatsAnswer } from '../routes/stats/schema.js';
import { ListingDetail } from '../routes/detail/schema.js';
import { PtzZoneAnswer } from '../routes/ptz/schema.js';
import { PingAnswer } from '../routes/ping/schema.js';
import { SourcesAnswer } from '../routes/sources/schema.js';
import { HealthAnswer } from '../routes/health/schema.js';
import { OpenApiDocument } from '../routes/docs/schema.js';
import { AlertAnswer, AlertBody, AlertCreated, AlertList, DeliveryList } from '../routes/alertes/schema.js';
import { routeTraits, type Route } from './route.js';

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
  AlertBody,
  AlertAnswer,
  AlertCreated,
  AlertList,
  DeliveryList,
};

/** The component name of a schema a route answers or receives; a schema not named above is a fault of the table. */
function componentName(schema: z.ZodType, route: Route): string {
  const name = Object.keys(COMPONENTS).find((key) => COMPONENTS[key] === schema);
  if (!name) throw new Error(`${route.path}: a schema of the route is not a component of the OpenAPI document`);
  return name;
}

/** Annonce objects carry `<field>_source` when a value was completed from a duplicate on another site. */
const COMPLETED_FROM = { '^[a-z_]+_source$': { type: 'string', description: 'The site a missing value was completed from.' } };

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
  relistee: 'true: only relistings (a withdrawn property republished within 90 days under a new reference, `relisted_from` set); false: no relisting.',
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

function responses(op: Route): JsonObject {
  const { keyed, rateLimited, headers: groups } = routeTraits(op);
  const success = [...(keyed ? ['X-Annonces-From'] : []), 'X-Request-Id', ...(op.cache ? ['Cache-Control'] : [])];
  if (groups.includes('rate')) success.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
  if (groups.includes('quota')) success.push(...QUOTA_HEADERS);
  if (groups.includes('unknownSources')) success.push('X-Unknown-Sources');
  if (groups.includes('etag')) success.push('ETag');
  const json = (schema: string) => ({ 'application/json': { schema: ref(schema) } });
  const content = op.answer === 'html' ? { 'text/html': { schema: { type: 'string' } } } : op.answer === null ? {} : json(componentName(op.answer, op));
  const status = op.status ?? 200;
  const answers: JsonObject = {
    [status]: {
      description: status === 201 ? 'Created' : status === 204 ? 'No content' : 'OK',
      headers: headerRefs(success),
      ...(status === 204 ? {} : { content }),
    },
  };
  if (groups.includes('etag')) answers[304] = { description: 'Not modified: the ETag sent in If-None-Match is current.', headers: headerRefs(success) };
  const statuses = [...op.errors, ...(keyed ? [401] : []), ...(keyed && rateLimited ? [429] : []), 503].sort();
  for (const status of statuses) {
    const headers = status === 429 || status === 503 ? ['Retry-After', 'X-Request-Id'] : ['X-Request-Id'];
    if (keyed && status !== 401) headers.push('X-Annonces-From');
    // The rate windows answer before validation and quotas, so their refusals carry the window.
    if (groups.includes('rate') && status !== 401) headers.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
    if (op.cache) headers.push('Cache-Control');
    const body = status === 503 && op.unavailable ? componentName(op.unavailable, op) : 'ErrorBody';
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

export function openApiDocument(routes: readonly Route[], version: string): JsonObject {
  const paths: JsonObject = {};
  for (const op of routes.filter((route) => !route.undocumented)) {
    const params = [...(op.pathParams ? parameters(op.pathParams, 'path') : []), ...(op.query ? parameters(op.query, 'query') : [])];
    const method = op.method ?? 'get';
    paths[op.path] = {
      ...(paths[op.path] as JsonObject | undefined),
      [method]: {
        operationId: operationId(method, op.path),
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        ...(routeTraits(op).keyed ? {} : { security: [] }),
        ...(params.length ? { parameters: params } : {}),
        ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(componentName(op.body, op)) } } } } : {}),
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
