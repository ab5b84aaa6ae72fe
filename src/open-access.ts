/**
 * Opens the access backend of docs/architecture.md: Redis when a URL is configured (accounts, keys, counters
 * and rate windows shared by every API server), else the embedded SQLite file with in-memory rate
 * windows. Both get the same MeteringService.
 */
import path from 'node:path';
import type pino from 'pino';
import type { AccessStore } from './core/ports/access-store.js';
import type { AlertStore } from './core/ports/alert-store.js';
import { SqliteAccessStore } from './adapters/sqlite-access/access-store.js';
import { SqliteAlertStore } from './adapters/sqlite-access/alert-store.js';
import { RedisAccessStore } from './adapters/redis/access-store.js';
import { RedisAlertStore } from './adapters/redis/alert-store.js';
import { connectRedis, waitUntilReady } from './adapters/redis/client.js';
import type { Metering } from './api/access/metering.js';
import { MeteringService } from './api/access/metering-service.js';
import { loadOffers, type OfferCatalog } from './api/access/offers.js';
import { RateWindows } from './api/access/rate-windows.js';

export interface AccessBackendConfig {
  redisUrl: string | null;
  /** The embedded access file (ignored with Redis). */
  accessFile: string;
  /** Prefix of every Redis key (default `annonces:`); tests use one per run. */
  keyPrefix?: string;
  /** Defaults to src/config/offers.json. */
  offers?: OfferCatalog;
  /** Where Redis connection errors are reported (at warn level). */
  logger?: pino.Logger;
}

export interface AccessBackend {
  access: AccessStore;
  /** Alerts share the access backend: every API process and the notifier see the same ones. */
  alerts: AlertStore;
  metering: Metering;
  close(): Promise<void>;
}

/** How long start-up waits for Redis; past it the service starts degraded and recovers by itself. */
const REDIS_STARTUP_WAIT_MS = 3_000;

export async function createAccessBackend(config: AccessBackendConfig): Promise<AccessBackend> {
  const offers = config.offers ?? loadOffers();
  if (!config.redisUrl) {
    const access = SqliteAccessStore.open(config.accessFile);
    return {
      access,
      alerts: new SqliteAlertStore(access.database),
      metering: new MeteringService(access, offers, RateWindows.inMemory()),
      close: () => access.close(),
    };
  }
  const client = connectRedis(config.redisUrl, reportOutage(config.logger));
  await waitUntilReady(client, REDIS_STARTUP_WAIT_MS);
  const keyPrefix = config.keyPrefix ?? 'annonces:';
  // The witness that accounts existed lives beside the embedded access file (the data directory).
  const access = new RedisAccessStore(
    client,
    keyPrefix,
    true,
    config.accessFile ? path.join(path.dirname(config.accessFile), 'redis-accounts-witness.json') : null,
  );
  // Seen at start, so that a loss is caught even if nobody asked /health before it.
  await access.health();
  return {
    access,
    alerts: new RedisAlertStore(client, keyPrefix),
    metering: new MeteringService(access, offers, RateWindows.onRedis(client, keyPrefix)),
    close: () => access.close(),
  };
}

/** One warning per outage rather than one per reconnection attempt. */
function reportOutage(logger: pino.Logger | undefined): (error: Error) => void {
  let lastReport = 0;
  return (error) => {
    if (!logger || Date.now() - lastReport < 60_000) return;
    lastReport = Date.now();
    logger.warn({ err: error.message }, 'Redis access backend unreachable; listing endpoints answer 503 until it returns');
  };
}
