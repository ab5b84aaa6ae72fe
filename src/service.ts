/**
 * Builds the running service from the configuration: opens the stores, assembles the app. Used by
 * app/main.ts (npm start), the tests and the benchmarks, so all three run the same wiring.
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Server } from 'node:http';
import pino from 'pino';
import type { Config } from './config/config.js';
import { createApp } from './api/http/app.js';
import type { AppDeps } from './api/http/state.js';
import { loadOffers } from './api/access/offers.js';
import { createAccessBackend } from './open-access.js';
import { loadSites } from './core/model/sites.js';
import { CursorCodec } from './core/query/cursor.js';
import { loadPtzLookup } from './core/refdata/ptz.js';
import { openListingStore } from './open-listing-store.js';
import type { ListingStore } from './core/ports/listing-store.js';
import { ApiMetrics } from './api/http/metrics.js';

export const VERSION = '1.0.0';

export interface Service {
  deps: AppDeps;
  /** The listings store the routes read (deps.listings), whole: the first start loads the sample into it (app/bootstrap.ts). */
  listingStore: ListingStore;
  listen(port: number, host?: string): Promise<Server>;
  close(): Promise<void>;
}

/**
 * Log lines are gathered into writes of at least this many bytes (or every LOG_FLUSH_MS, and at
 * exit): at info the API writes one line per request, and one write per line cost more than the line.
 */
const LOG_WRITE_BYTES = 8192;
const LOG_FLUSH_MS = 1000;

export function createLogger(level: Config['logLevel'], destination: pino.DestinationStream = logDestination()): pino.Logger {
  // API keys and contact data never reach a log line, whatever a caller puts in headers.
  return pino(
    {
      level,
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'key_plain', '*.seller_phone', '*.seller_email'], censor: '[redacted]' },
    },
    destination,
  );
}

/** Standard output, written asynchronously in blocks; pino flushes what is left when the process exits. */
function logDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/** Dependencies given instead of the configured ones; the listings store whole, as both ports. */
export type ServiceOverrides = Omit<Partial<AppDeps>, 'listings'> & { listings?: ListingStore };

export async function createService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  mkdirSync(config.dataDir, { recursive: true });
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const listings = overrides.listings ?? (await openListingStore(config, { mmapMiB: config.sqliteMmapMiB }));
  const offers = overrides.offers ?? loadOffers();
  const accessBackend = await createAccessBackend({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, accessFile: config.accessFile, offers });
  const deps: AppDeps = {
    listings,
    access: accessBackend.access,
    alerts: accessBackend.alerts,
    alertPrivateUrls: config.alertPrivateUrls,
    metering: accessBackend.metering,
    offers,
    sites: loadSites(),
    cursors: new CursorCodec(config.cursorSecret ?? cursorSecret(config.dataDir)),
    ptz: loadPtzLookup(),
    logger,
    feedSettleMs: config.feedSettleMs,
    version: VERSION,
    now: Date.now,
    ...overrides,
  };
  if (config.metricsPort !== null) {
    const metrics = new ApiMetrics();
    Object.assign(deps, {
      metrics,
      listings: metrics.timed('listings', deps.listings),
      access: metrics.timed('access', deps.access),
      metering: metrics.timed('access', deps.metering),
    });
  }
  const app = createApp(deps);
  let server: Server | null = null;
  return {
    deps,
    listingStore: listings,
    listen: (port, host) =>
      new Promise((resolve) => {
        server = app.listen(port, host, () => resolve(server!));
      }),
    close: async () => {
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
      await accessBackend.close();
      await listings.close();
    },
  };
}

/** Cursors must stay valid across restarts: the secret is generated once and kept in the data directory. */
function cursorSecret(dataDir: string): string {
  const file = path.join(dataDir, 'cursor-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
