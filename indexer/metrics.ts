/**
 * The indexer's counters for Prometheus (prom-client), when a load runs with METRICS_PORT set, e.g.
 * a scheduled load that an operator watches: records by outcome, the rate, the process metrics,
 * served on that port (GET /metrics) while the load runs.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { LoadProgress } from './load.js';

const OUTCOMES = ['read', 'written', 'unchanged', 'stale', 'rejected', 'regrouped_at_end'] as const;

export class IndexerMetrics {
  readonly registry = new Registry();
  private readonly records = new Counter({
    name: 'annonces_indexer_records_total',
    help: 'Records of the load by outcome (read, written, unchanged, stale, rejected, regrouped_at_end).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly rate = new Gauge({
    name: 'annonces_indexer_records_per_second',
    help: 'Records read per second since the load started.',
    registers: [this.registry],
  });
  /** The counts already added: progress reports totals, counters take increments. */
  private readonly counted = new Map<string, number>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observe(progress: LoadProgress): void {
    for (const outcome of OUTCOMES) {
      const increment = progress[outcome] - (this.counted.get(outcome) ?? 0);
      if (increment > 0) this.records.inc({ outcome }, increment);
      this.counted.set(outcome, progress[outcome]);
    }
    this.rate.set(progress.records_per_second);
  }
}
