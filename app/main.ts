/**
 * npm start: the API on the configured stores (SQLite in ./data by default), sample loaded when
 * empty. With API_WORKERS > 1 this process becomes the cluster primary (src/cluster.ts). It lives in
 * the composition root (app/), the one place that wires the API and the indexer together.
 */
import { loadConfig } from '../src/config/config.js';
import { createService } from '../src/service.js';
import { bootstrapIfEmpty } from './bootstrap.js';
import { assertClusterConfig, ClusterConfigError, isClusterPrimary, superviseWorkers } from '../src/cluster.js';
import { clusterMetricsSource, metricsSource, shareWithClusterPrimary, startMetricsServer } from '../src/metrics-server.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  assertClusterConfig(config);
  const service = await createService(config);
  if (isClusterPrimary(config)) {
    // Prepared once, before any worker opens the stores (the cursor secret file is created here too).
    await bootstrapIfEmpty(service, config);
    await service.close();
    service.deps.logger.info({ workers: config.apiWorkers }, 'starting API workers');
    superviseWorkers(config, (message, fields) => service.deps.logger.warn(fields ?? {}, message));
    if (config.metricsPort !== null) await startMetricsServer(clusterMetricsSource(), config.metricsPort, config.host);
    return;
  }
  const { metrics } = service.deps;
  // A worker answers the primary's metrics requests before it listens: a scrape waits for every worker.
  if (metrics && config.apiWorkers > 1) shareWithClusterPrimary(metrics);
  if (config.apiWorkers === 1) await bootstrapIfEmpty(service, config);
  await service.listen(config.port, config.host);
  if (metrics && config.apiWorkers === 1 && config.metricsPort !== null) await startMetricsServer(metricsSource(metrics), config.metricsPort, config.host);
  // What the store prepares for the first requests (SQLite: the map's exact totals are counted in
  // memory once its copy is read) is read after listening, so the server answers meanwhile.
  void service.deps.listings.warmUp();
  service.deps.logger.info(
    { port: config.port, listings: service.deps.listings.backend, access: service.deps.access.backend, pid: process.pid },
    `listening on http://localhost:${config.port}/api/v1`,
  );
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  // A configuration mistake is one line naming the setting, not a stack trace.
  console.error(error instanceof ClusterConfigError ? error.message : error);
  process.exit(1);
});
