/**
 * The bench account: created with the admin commands (src/admin/commands.ts, what
 * `npm run admin -- keys create` runs) on the same DATA_DIR, before the server starts. Offer
 * `sur_mesure` has very high limits, so quota accounting and rate limiting stay ON without refusing
 * anything. The access file is recreated on every run: a run never inherits another run's counters.
 */
import { rmSync } from 'node:fs';
import { loadConfig } from '../../src/config/config.js';
import { loadOffers } from '../../src/access/offers.js';
import { createAccessBackend } from '../../src/access/backend.js';
import { createKey } from '../../src/admin/commands.js';

export interface BenchKey {
  key: string;
  /** The account's access start date (epoch ms): the `enteredFrom` of the raw store queries. */
  enteredFrom: number;
}

/** Ten years of history, so the whole generated catalogue (120 days of collection) is visible. */
const HISTORY_DAYS = 3650;

export async function createBenchKey(dataDir: string): Promise<BenchKey> {
  const config = loadConfig({ DATA_DIR: dataDir });
  for (const suffix of ['', '-wal', '-shm']) rmSync(config.accessFile + suffix, { force: true });
  const offers = loadOffers();
  const backend = await createAccessBackend({ redisUrl: null, accessFile: config.accessFile, offers });
  try {
    const created = await createKey(backend.access, offers, { account: 'bench', offer: 'sur_mesure', historyDays: HISTORY_DAYS, name: 'bench' });
    return { key: created.key, enteredFrom: Date.parse(`${created.annonces_from}T00:00:00Z`) };
  } finally {
    await backend.close();
  }
}
