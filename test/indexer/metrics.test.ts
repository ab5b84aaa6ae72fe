/** The indexer's Prometheus counters, fed by a load's progress (METRICS_PORT on `indexer load`). */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { loadConfig } from '../../src/config/config.js';
import { openListingStore } from '../../src/open-listing-store.js';
import { loadWithProgress } from '../../indexer/load-with-progress.js';
import { IndexerMetrics } from '../../indexer/metrics.js';

describe('indexer metrics', () => {
  it('counts the records of a load by outcome (a second load: unchanged)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'indexer-metrics-'));
    const store = await openListingStore(loadConfig({ DATA_DIR: dataDir, ES_URL: '' }));
    const metrics = new IndexerMetrics();
    try {
      const file = writeNdjson([rawRecord(1), rawRecord(2), rawRecord(3), '{broken'], 'in.ndjson', dataDir);
      await loadWithProgress([file], store, null, { metrics });
      let text = await metrics.registry.metrics();
      expect(text).to.include('annonces_indexer_records_total{outcome="read"} 4');
      expect(text).to.include('annonces_indexer_records_total{outcome="written"} 3');
      expect(text).to.include('annonces_indexer_records_total{outcome="rejected"} 1');
      expect(text).to.include('annonces_indexer_records_per_second');
      const again = new IndexerMetrics();
      await loadWithProgress([file], store, null, { metrics: again });
      text = await again.registry.metrics();
      expect(text).to.include('annonces_indexer_records_total{outcome="unchanged"} 3');
    } finally {
      await store.close();
    }
  });
});
