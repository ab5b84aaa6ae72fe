/**
 * The real app (test/support/app.ts) on either access backend, with the offers a test needs. On
 * Redis the access backend gets a key prefix of its own, removed when the app closes.
 */
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../../../support/app.js';
import type { Engine } from '../../../support/engines.js';
import { makeListings } from '../../../support/fixtures.js';
import { createAccessBackend } from '../../../../src/open-access.js';
import { loadOffers, OfferCatalog, type Offer } from '../../../../src/api/access/offers.js';
import { connectRedis, waitUntilReady } from '../../../../src/adapters/redis/client.js';
import { deleteKeys } from '../../../conformance/access/targets.js';

export type AccessBackendName = 'sqlite' | 'redis';

/** The configured offers with some values changed, e.g. `{ decouverte: { perSecond: 50 } }`. */
export function offersWith(changes: Record<string, Partial<Offer>> = {}, everyOffer: Partial<Offer> = {}): OfferCatalog {
  return new OfferCatalog(loadOffers().offers.map((o) => ({ ...o, ...everyOffer, ...changes[o.id] })));
}

/** Per-second and per-minute windows out of the way of tests that send bursts of requests. */
export const NO_RATE_WINDOWS: Partial<Offer> = { perSecond: 10_000, perMinute: 10_000 };

export const LISTINGS = makeListings({ count: 300, seed: 11 });

export async function startQuotaApp(
  backend: AccessBackendName,
  offers: OfferCatalog,
  redisUrl = process.env.REDIS_URL,
  engine: Engine = 'sqlite',
): Promise<TestApp> {
  if (backend === 'sqlite') return startTestApp({ listings: LISTINGS, engine, deps: { offers } });
  const keyPrefix = `test:quotas:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const access = await createAccessBackend({ redisUrl: redisUrl!, accessFile: '', keyPrefix, offers });
  const app = await startTestApp({ listings: LISTINGS, engine, deps: { offers, access: access.access, metering: access.metering } });
  return {
    ...app,
    async close() {
      await app.close();
      await access.close();
      const cleaner = connectRedis(redisUrl!);
      if (await waitUntilReady(cleaner, 2000)) await deleteKeys(cleaner, keyPrefix);
      cleaner.disconnect();
    },
  };
}
