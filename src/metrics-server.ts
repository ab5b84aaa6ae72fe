/**
 * The Prometheus metrics server, shared by the API (src/api/http/metrics.ts) and the indexer
 * (indexer/metrics.ts): GET /metrics on a port of its own, from a process's registry or, on the
 * cluster primary, the sum of its workers' registries.
 */
import { createServer, type Server } from 'node:http';
import { AggregatorRegistry, type Registry } from 'prom-client';

/** Workers of the cluster: the primary's aggregator collects this registry. */
export function shareWithClusterPrimary(metrics: { registry: Registry }): void {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // prom-client answers the primary's requests from a worker only once an aggregator exists there.
  void new AggregatorRegistry();
}

/** The primary of the cluster: the sum of its workers' metrics. */
export function clusterMetricsSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, read: () => aggregator.clusterMetrics() };
}

export interface MetricsSource {
  contentType: string;
  read(): Promise<string>;
}

/** The registry of a process's own metrics (the API's, or an indexer load's). */
export const metricsSource = (metrics: { registry: Registry }): MetricsSource => ({
  contentType: metrics.registry.contentType,
  read: () => metrics.registry.metrics(),
});

/** GET /metrics on its own port; anything else is 404. */
export function startMetricsServer(source: MetricsSource, port: number, host?: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    source.read().then(
      (text) => res.writeHead(200, { 'Content-Type': source.contentType }).end(text),
      () => res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n'),
    );
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => resolve(server));
  });
}
