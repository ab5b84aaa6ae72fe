/**
 * npm run notifier: the alerts' notifier as its own process, beside the API processes, on the same
 * configuration (listings engine, access backend). Run exactly one (docs/operations.md "Notifier").
 */
import { loadConfig } from '../config/config.js';
import { createLogger } from '../service.js';
import { openListingStore } from '../open-listing-store.js';
import { createAccessBackend } from '../open-access.js';
import { loadOffers } from '../api/access/offers.js';
import { Notifier } from './notifier.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const offers = loadOffers();
  const listings = await openListingStore(config, { mmapMiB: 0 });
  const backend = await createAccessBackend({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, accessFile: config.accessFile, offers, logger });
  const notifier = new Notifier({
    listings,
    alerts: backend.alerts,
    access: backend.access,
    offers,
    logger,
    settleMs: config.feedSettleMs,
    pollMs: config.notifierPollMs,
    allowPrivateUrls: config.alertPrivateUrls,
  });
  await notifier.start();
  logger.info({ listings: listings.backend, access: backend.access.backend, pid: process.pid }, 'notifier following the change flows');
  const stop = async () => {
    await notifier.stop();
    await backend.close();
    await listings.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
