/**
 * The shared ListingStore conformance suite on Elasticsearch. The cluster is, in order:
 *   1. ES_URL (with ES_API_KEY or ES_USERNAME/ES_PASSWORD, ES_CA_FILE), e.g. the one `docker compose up` starts;
 *   2. a throwaway container started by testcontainers when a container runtime is available;
 *   3. none: the suite is reported as skipped, loudly, with the reason.
 * Each run works in its own alias (`conformance-<pid>-<time>`) and deletes its indices at the end, so
 * it never touches the service's `annonces` alias on a shared cluster.
 */
import { getContainerRuntimeClient } from 'testcontainers';
import { ElasticsearchContainer, type StartedElasticsearchContainer } from '@testcontainers/elasticsearch';
import { createElasticsearchClient, type ElasticsearchConnection } from '../../src/stores/elasticsearch/client.js';
import { ensureIndex } from '../../src/stores/elasticsearch/aliases.js';
import { ElasticsearchListingStore } from '../../src/stores/elasticsearch/listing-store.js';
import { runListingStoreConformance } from './listing-store.suite.js';

/** The image of docker-compose.yml, so CI and a developer's machine test the same engine. */
const ELASTICSEARCH_IMAGE = 'docker.elastic.co/elasticsearch/elasticsearch:8.19.20';

type Target = { connection: ElasticsearchConnection; container?: StartedElasticsearchContainer } | { skipped: string };

async function findCluster(): Promise<Target> {
  const env = process.env;
  if (env.ES_URL) {
    return { connection: { url: env.ES_URL, apiKey: env.ES_API_KEY, username: env.ES_USERNAME, password: env.ES_PASSWORD, caFile: env.ES_CA_FILE } };
  }
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    return { skipped: `Elasticsearch conformance skipped: no ES_URL and no container runtime (${(error as Error).message})` };
  }
  try {
    // Started here, before mocha's hook timeouts apply: pulling the image can take minutes.
    const container = await new ElasticsearchContainer(ELASTICSEARCH_IMAGE).start();
    return { connection: { url: container.getHttpUrl(), username: container.getUsername(), password: container.getPassword() }, container };
  } catch (error) {
    return { skipped: `Elasticsearch conformance skipped: a container runtime answered but Elasticsearch did not start (${(error as Error).message})` };
  }
}

const target = await findCluster();

if ('skipped' in target) {
  describe('ListingStore conformance: elasticsearch', function () {
    before(function () {
      const line = '!'.repeat(Math.min(120, target.skipped.length));
      console.warn(`\n${line}\n${target.skipped}\nSet ES_URL (e.g. ES_URL=http://localhost:9200 after docker compose up) to run it.\n${line}\n`);
      this.skip();
    });
    it('runs the shared ListingStore conformance suite against a real cluster', () => {});
  });
} else {
  runListingStoreConformance('elasticsearch', async () => {
    const client = createElasticsearchClient(target.connection, { requestTimeout: 60_000 });
    const alias = `conformance-${process.pid}-${Date.now()}`;
    await ensureIndex(client, alias);
    // Searches must see each write at once, as they do on SQLite: refresh after every upsertMany.
    const store = new ElasticsearchListingStore(client, { alias, refreshOnWrite: true });
    const close = store.close.bind(store);
    store.close = async () => {
      try {
        await client.indices.delete({ index: `${alias}-v*`, expand_wildcards: 'all' });
      } finally {
        await close();
        await target.container?.stop();
      }
    };
    return store;
  });
}
