/** What the middlewares put on `ctx.state`, and the dependencies every handler receives. */
import type pino from 'pino';
import type { Account, AccessStore, ApiKeyRecord } from '../../core/ports/access-store.js';
import type { AlertStore } from '../../core/ports/alert-store.js';
import type { ListingReader } from '../../core/ports/listing-reader.js';
import type { Offer, OfferCatalog } from '../access/offers.js';
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

export interface Caller {
  account: Account;
  offer: Offer;
  key: ApiKeyRecord;
  /** Access start date as epoch ms (00:00 UTC of X-Annonces-From). */
  enteredFrom: number;
}

export interface RequestState {
  requestId: string;
  caller?: Caller;
  /** Listing ids a response delivers, counted by the metering middleware after the handler. */
  delivered?: string[];
  /** The parsed JSON body of a write (middleware/json-request.ts), before its validation. */
  body?: unknown;
}
