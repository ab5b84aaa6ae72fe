/**
 * The shared ListingStore conformance suite on a real Elasticsearch cluster (ES_URL), and on the
 * cluster with security on, TLS and the indexer's least-privilege role (ES_SECURE_URL): the
 * production index definition, in an alias of its own that is deleted afterwards
 * (test/support/elasticsearch.ts).
 */
import { engineMissing, openElasticsearchEngineStore, type Engine } from '../support/engines.js';
import { runListingStoreConformance } from './listing-store.suite.js';

for (const engine of ['elasticsearch', 'elasticsearch-secured'] as const satisfies readonly Engine[]) {
  const missing = engineMissing(engine);
  if (missing === null) {
    runListingStoreConformance(engine, () => openElasticsearchEngineStore(engine, 'conformance'));
  } else {
    describe(`ListingStore conformance: ${engine}`, function () {
      it('runs the shared ListingStore conformance suite against a real cluster', function () {
        if (process.env.REQUIRE_ALL_ENGINES) throw new Error(`${engine} is required here: ${missing}`);
        this.skip();
      });
    });
  }
}
