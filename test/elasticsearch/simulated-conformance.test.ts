/**
 * The shared ListingStore conformance suite run on the Elasticsearch adapter over the in-memory
 * simulation of simulated-cluster.ts: it checks the adapter's logic (bodies -> hits -> pages,
 * positions, has_more, visibility, document mapping) against the same oracle as SQLite, on every
 * machine. The real-engine run is test/conformance/listing-store-elasticsearch.test.ts (ES_URL).
 */
import { ElasticsearchListingStore } from '../../src/stores/elasticsearch/listing-store.js';
import { runListingStoreConformance } from '../conformance/listing-store.suite.js';
import { simulatedCluster } from './simulated-cluster.js';

runListingStoreConformance('elasticsearch adapter on a simulated cluster (in memory, no stemming)', async () => {
  const cluster = simulatedCluster('annonces');
  return new ElasticsearchListingStore(cluster.client, { alias: 'annonces', refreshOnWrite: true });
});
