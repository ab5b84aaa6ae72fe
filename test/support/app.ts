/**
 * Starts the real service (same wiring as npm start) on a temporary data directory and a free port,
 * on the listing engine asked for (test/support/engines.ts). Tests talk to it over HTTP with fetch.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { createService, type Service, type ServiceOverrides } from '../../src/service.js';
import { createKey } from '../../src/admin/commands.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import { openEngineStore, type Engine } from './engines.js';

export interface TestApp {
  service: Service;
  base: string;
  dataDir: string;
  /** A clock the test can move: `clock.now` is read by every request. */
  clock: { now: number };
  newKey(offer?: string, options?: { account?: string; createdAt?: string; historyDays?: number }): Promise<string>;
  get(pathAndQuery: string, key?: string | null, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

let accountCounter = 0;

export interface TestAppOptions {
  listings?: StoredListing[];
  env?: Record<string, string>;
  deps?: ServiceOverrides;
  /** The listing engine (default SQLite); an Elasticsearch store is deleted when the app closes. */
  engine?: Engine;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'annonces-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, FEED_SETTLE_SECONDS: '0', LOG_LEVEL: 'silent', CURSOR_SECRET: 'test-secret', ...options.env });
  const clock = { now: Date.now() };
  const listings = options.deps?.listings ?? (await openEngineStore(options.engine ?? 'sqlite'));
  const service = await createService(config, { logger: pino({ level: 'silent' }), now: () => clock.now, ...options.deps, ...(listings ? { listings } : {}) });
  if (options.listings) await service.listingStore.upsertMany(options.listings);
  const server = await service.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return {
    service,
    base,
    dataDir,
    clock,
    async newKey(offer = 'sur_mesure', keyOptions = {}) {
      const created = await createKey(service.deps.access, service.deps.offers, {
        account: keyOptions.account ?? `acct-${process.pid}-${++accountCounter}`,
        offer,
        createdAt: keyOptions.createdAt ?? '2020-01-01',
        historyDays: keyOptions.historyDays ?? 0,
      });
      return created.key;
    },
    async get(pathAndQuery, key = null, headers = {}) {
      const response = await fetch(base + pathAndQuery, { headers: { ...(key ? { 'X-Api-Key': key } : {}), ...headers } });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: the test will say so */
      }
      return { status: response.status, headers: response.headers, body };
    },
    close: () => service.close(),
  };
}

/** The app on `engine` serving `listings` for the enclosing suite, and a key of `offer`: started before its tests, closed after. */
export function appServing(engine: Engine, listings: StoredListing[], offer = 'sur_mesure'): { app: () => TestApp; key: () => string } {
  let app: TestApp | undefined;
  let key = '';
  before(async () => {
    app = await startTestApp({ listings, engine });
    key = await app.newKey(offer);
  });
  after(async () => {
    await app?.close();
  });
  return { app: () => app!, key: () => key };
}
