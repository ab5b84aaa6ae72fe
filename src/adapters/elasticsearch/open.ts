/**
 * Opens the Elasticsearch ListingStore from the configuration (called by src/open-listing-store.ts
 * when ES_URL is set). Creates the first index generation behind the alias when there is none, so
 * `docker compose up` then a load just works. An unreachable cluster does not stop the service from
 * starting: /health reports it and listing requests answer 503 until it is back.
 */
import type { ClientOptions } from '@elastic/elasticsearch';
import { createElasticsearchClient, type ElasticsearchConnection } from './client.js';
import { ensureIndex } from './aliases.js';
import { ElasticsearchListingStore, type ElasticsearchListingStoreOptions } from './listing-store.js';

export interface ElasticsearchStoreConfig extends ElasticsearchConnection {
  alias: string;
}

export interface OpenOptions extends Omit<ElasticsearchListingStoreOptions, 'alias'> {
  client?: Partial<ClientOptions>;
  /**
   * Told when the alias could not be checked or created at start-up (cluster down, read-only
   * credentials, a setting the cluster refuses). Default: a process warning on stderr, never silence.
   */
  onStartupProblem?: (error: unknown) => void;
}

export async function openElasticsearchStore(config: ElasticsearchStoreConfig, options: OpenOptions = {}): Promise<ElasticsearchListingStore> {
  const { client: clientOptions, onStartupProblem = warnAtStartup, ...storeOptions } = options;
  const client = createElasticsearchClient(config, clientOptions);
  const store = new ElasticsearchListingStore(client, { ...storeOptions, alias: config.alias });
  try {
    await ensureIndex(client, config.alias);
    // A load killed earlier left refreshes off and its lock behind: undone before anything reads.
    await store.recoverAbandonedLoad();
  } catch (error) {
    onStartupProblem(error);
  }
  return store;
}

function warnAtStartup(error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(`Elasticsearch: could not check the index behind the alias at start-up (${reason}); listing requests answer 503 until it is reachable.`, {
    code: 'ANNONCES_ES_STARTUP',
  });
}
