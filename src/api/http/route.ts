/**
 * One route of the API as the route table (routes.ts) declares it, once: the router (router.ts) runs
 * its steps and handler, the OpenAPI document (openapi.ts) describes it from the same entry. Whether
 * a route is keyed, rate-limited, conditional or metered is read from its steps, so the document
 * cannot say other than what runs.
 */
import type { z } from 'zod';
import type { MeterKind } from '../access/metering.js';
import { input, type RouteHandler, type RouteInput } from './middleware/validate.js';
import type { ApiMiddleware, AppDeps } from './state.js';

/** Groups of response headers (openapi.ts lists each group's headers). */
export type Header = 'rate' | 'quota' | 'unknownSources' | 'etag';

/**
 * One step of a route's pipeline; the router runs them in the order given, then the handler.
 * - 'key': authenticate (401 without a valid key): the route is keyed;
 * - 'rate': the per-second and per-minute windows (429), with their headers;
 * - 'usage': the rate and quota headers as they stand, taking nothing (/ping);
 * - 'input': the query and path parameters parsed with the route's schemas (400, 422); a route
 *   without schemas refuses any query parameter (400 UNKNOWN_PARAMETER);
 * - 'siteFilters': 402 when the parsed parameters filter sites and the offer has no site filters;
 * - { gate }: the route's own offer gate (402), before anything is counted;
 * - { meter }: the quota check before the handler, the counting after it, and the quota headers;
 * - 'conditional': ETag and 304;
 * - { jsonBody }: the JSON object of a write's body, at most that many bytes (413, 415, 400).
 */
export type Step =
  | 'key'
  | 'rate'
  | 'usage'
  | 'input'
  | 'siteFilters'
  | 'conditional'
  | { gate: () => ApiMiddleware }
  | { meter: MeterKind }
  | { jsonBody: number };

type Output<S> = S extends z.ZodType ? z.output<S> : unknown;

/** A route as written in the table; `handler` receives the parameters its schemas parse. */
export interface RouteSpec<Q extends z.ZodObject | undefined, P extends z.ZodObject | undefined> {
  /** GET unless said otherwise (the alerts' writes). */
  method?: 'get' | 'post' | 'delete';
  /** As OpenAPI writes it, under /api/v1: `/annonces/{source}/{reference}`. */
  path: string;
  summary: string;
  description?: string;
  steps: Step[];
  query?: Q;
  pathParams?: P;
  /** The JSON request body, a component of the document (its validation is the handler's). */
  body?: z.ZodType;
  /** The success body, a component of the document; 'html' for a page, null for none (204). */
  answer: z.ZodType | 'html' | null;
  /** The success status, 200 unless said otherwise. */
  status?: 201 | 204;
  /** Error statuses besides 401 (keyed), 429 (rate-limited) and 503 (every route). */
  errors: number[];
  /** Headers beyond those the steps imply. */
  headers?: Header[];
  cache?: string;
  /** The 503 body when it is not the plain error body. */
  unavailable?: z.ZodType;
  /** Served, but no part of the API's document (the documentation page's files). */
  undocumented?: true;
  handler: (deps: AppDeps) => RouteHandler<Output<Q> & Output<P>>;
}

/** A route of the table, its parameters' type erased once its handler is bound to them. */
export interface Route extends Omit<RouteSpec<z.ZodObject | undefined, z.ZodObject | undefined>, 'handler'> {
  input: RouteInput<unknown>;
  /** The handler with its dependencies, as the route's last middleware. */
  endpoint(deps: AppDeps): ApiMiddleware;
}

export function defineRoute<Q extends z.ZodObject | undefined = undefined, P extends z.ZodObject | undefined = undefined>(spec: RouteSpec<Q, P>): Route {
  const { handler, ...route } = spec;
  if ((spec.query || spec.pathParams) && !spec.steps.includes('input')) throw new Error(`${spec.path}: a route with parameter schemas needs the 'input' step`);
  const parsed = input<Q, P>({ query: spec.query, path: spec.pathParams });
  return { ...route, input: parsed, endpoint: (deps) => parsed.handle(handler(deps)) };
}

/** What the steps of a route say about it, as the document states it. */
export function routeTraits(route: Route): { keyed: boolean; rateLimited: boolean; headers: Header[] } {
  const has = (step: Step) => route.steps.includes(step);
  const metered = route.steps.some((step) => typeof step === 'object' && 'meter' in step);
  const headers: Header[] = [...(route.headers ?? [])];
  if (has('rate') || has('usage')) headers.push('rate');
  if (metered || has('usage')) headers.push('quota');
  if (has('siteFilters')) headers.push('unknownSources');
  if (has('conditional')) headers.push('etag');
  return { keyed: has('key'), rateLimited: has('rate'), headers };
}
