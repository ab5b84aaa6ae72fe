/**
 * What the middlewares put on `ctx.state` (RequestState, the `StateT` of the app, the router and every
 * middleware's context), and the dependencies every handler receives.
 */
import type { RouterContext } from '@koa/router';
import type { Next, ParameterizedContext } from 'koa';
import type pino from 'pino';
import type { AccessStore } from '../../core/ports/access-store.js';
import type { AlertStore } from '../../core/ports/alert-store.js';
import type { ListingReader } from '../../core/ports/listing-reader.js';
import type { OfferCatalog } from '../access/offers.js';
import type { Caller } from '../access/caller.js';
import type { SiteCatalog } from '../../core/model/sites.js';
import type { CursorCodec } from '../../core/query/cursor.js';
import type { PtzLookup } from '../../core/refdata/ptz.js';
import type { Metering } from '../access/metering.js';
import type { ApiMetrics } from './metrics.js';

export interface AppDeps {
  listings: ListingReader;
  access: AccessStore;
  alerts: AlertStore;
  /** Alerts may call loopback, link-local and private addresses (ALERT_PRIVATE_URLS=1: tests, private networks). */
  alertPrivateUrls: boolean;
  metering: Metering;
  offers: OfferCatalog;
  sites: SiteCatalog;
  cursors: CursorCodec;
  ptz: PtzLookup;
  logger: pino.Logger;
  feedSettleMs: number;
  version: string;
  /** Injected clock (tests move time); epoch milliseconds. */
  now: () => number;
  /** Prometheus metrics, when METRICS_PORT is set. */
  metrics?: ApiMetrics;
}

export interface RequestState {
  requestId: string;
  caller?: Caller;
  /** Listing ids a response delivers, counted by the metering middleware after the handler. */
  delivered?: string[];
  /** The JSON object of a write's body (middleware/json-request.ts), before its validation. */
  body?: Record<string, unknown>;
}

/** Koa's context extensions: none beyond the router's own (params, matched route). */
export type NoExtension = Record<never, never>;

/** The context of the app's own middlewares, around the router: the matched route is known after it ran. */
export type AppContext = ParameterizedContext<RequestState, { _matchedRoute?: string | RegExp }>;

/** The context of every route's middlewares and handler. */
export type ApiContext = RouterContext<RequestState, NoExtension>;

export type ApiMiddleware = (ctx: ApiContext, next: Next) => Promise<void>;

/** The caller `authenticate` set; throws when a route reaches this without it (a wiring fault, not a client's). */
export function callerOf(ctx: { state: RequestState }): Caller {
  const caller = ctx.state.caller;
  if (!caller) throw new Error('a keyed route ran without its authenticate middleware');
  return caller;
}
