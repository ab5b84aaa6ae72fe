/**
 * The shared ListingStore conformance suite on a real Elasticsearch cluster (ES_URL): the production
 * index definition, in an alias of its own that is deleted afterwards (test/support/elasticsearch.ts).
 */
import { engineMissing } from '../support/engines.js';
import { openTestElasticsearchStore } from '../support/elasticsearch.js';
import { runListingStoreConformance } from './listing-store.suite.js';

const missing = engineMissing('elasticsearch');
if (missing === null) {
  runListingStoreConformance('elasticsearch', () => openTestElasticsearchStore('conformance'));
} else {
  describe('ListingStore conformance: elasticsearch', function () {
    it('runs the shared ListingStore conformance suite against a real cluster', function () {
      if (process.env.REQUIRE_ALL_ENGINES) throw new Error(`elasticsearch is required here: ${missing}`);
      this.skip();
    });
  });
}
