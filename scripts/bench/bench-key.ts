/**
 * The bench account: created with the admin commands (src/admin/commands.ts, what
 * `npm run admin -- keys create` runs) in the access backend the server will use (the access file
 * of the same DATA_DIR, or Redis under BENCH_REDIS_PREFIX), before the server starts. Offer
 * `sur_mesure` has very high limits, so quota accounting and rate limiting stay ON without refusing
 * anything. The access state is recreated on every run: a run never inherits another run's counters.
 */
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config/config.js';
import { loadOffers } from '../../src/api/access/offers.js';
import { createAccessBackend } from '../../src/open-access.js';
import { createKey } from '../../src/admin/commands.js';

export interface BenchKey {
  key: string;
  /** The account's access start date (epoch ms): the `enteredFrom` of the raw store queries. */
  enteredFrom: number;
}

/** Ten years of history, so the whole generated catalogue (120 days of collection) is visible. */
export const BENCH_HISTORY_DAYS = 3650;

/** Redis keys of the benchmark's access state, apart from any other use of the same Redis. */
export const BENCH_REDIS_PREFIX = 'annonces-bench:';

export async function createBenchKey(dataDir: string, redisUrl: string | null): Promise<BenchKey> {
  const config = loadConfig({ DATA_DIR: dataDir });
  for (const suffix of ['', '-wal', '-shm']) rmSync(config.accessFile + suffix, { force: true });
  if (redisUrl) await dropRedisKeys(redisUrl, BENCH_REDIS_PREFIX);
  const offers = loadOffers();
  const backend = await createAccessBackend({ redisUrl, keyPrefix: BENCH_REDIS_PREFIX, accessFile: config.accessFile, offers });
  try {
    const created = await createKey(backend.access, offers, { account: 'bench', offer: 'sur_mesure', historyDays: BENCH_HISTORY_DAYS, name: 'bench' });
    return { key: created.key, enteredFrom: Date.parse(`${created.annonces_from}T00:00:00Z`) };
  } finally {
    await backend.close();
  }
}

async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
