/**
 * Prometheus metrics (prom-client), on when METRICS_PORT is set: requests by route, method and
 * status with their latency, the time of every store call, quota and rate refusals by code, and the
 * process's default metrics. Served on their own port (src/metrics-server.ts), away from the API's
 * keys and quotas. Each service has its own registry; the cluster primary aggregates its workers' registries.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'annonces_http_requests_total',
    help: 'HTTP requests answered, by route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'annonces_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly storeTime = new Histogram({
    name: 'annonces_store_call_duration_seconds',
    help: 'Time of a call to a store, by store, operation and outcome.',
    labelNames: ['store', 'operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'annonces_quota_refusals_total',
    help: 'Requests refused by a quota or a rate limit (402, 429), by code.',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  countRefusal(code: string): void {
    this.refusals.inc({ code });
  }

  /** The store with every asynchronous call timed (called on the store itself, not the proxy). */
  timed<T extends object>(store: string, target: T): T {
    const storeTime = this.storeTime;
    return new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result = value.apply(object, args);
          if (!(result instanceof Promise)) return result;
          const end = storeTime.startTimer({ store, operation: String(property) });
          return result.then(
            (answer) => {
              end({ outcome: 'ok' });
              return answer;
            },
            (error: unknown) => {
              end({ outcome: 'error' });
              throw error;
            },
          );
        };
      },
    });
  }
}
