/**
 * Opens the Elasticsearch ListingStore from the configuration (called by src/open-listing-store.ts
 * when ES_URL is set). Opening writes nothing: the API runs with a read-only role, so the alias is
 * created by the first writer that takes the lock (or `cli.ts ensure`), and what a dead writer left (its lock,
 * refreshes off, a journaled batch) is undone by the next writer that takes the lock over, never by
 * a reader. The alias is only looked at, to warn early. An unreachable cluster does not stop the
 * service from starting: /health reports it and listing requests answer 503 until it is back.
 */
import type { ClientOptions } from '@elastic/elasticsearch';
import { createElasticsearchClient, type ElasticsearchConnection } from './client.js';
import { indicesOf } from './aliases.js';
import { ElasticsearchListingStore, type ElasticsearchListingStoreOptions } from './listing-store.js';

export interface ElasticsearchStoreConfig extends ElasticsearchConnection {
  alias: string;
  writerLeaseMs?: number;
  replicas?: number;
}

export interface OpenOptions extends Omit<ElasticsearchListingStoreOptions, 'alias'> {
  client?: Partial<ClientOptions>;
  /**
   * Told when the alias could not be checked at start-up, or does not exist (cluster down, credentials
   * refused, no index yet). Default: a process warning on stderr, never silence.
   */
  onStartupProblem?: (error: unknown) => void;
}

export async function openElasticsearchStore(config: ElasticsearchStoreConfig, options: OpenOptions = {}): Promise<ElasticsearchListingStore> {
  const { client: clientOptions, onStartupProblem = warnAtStartup, ...storeOptions } = options;
  const client = createElasticsearchClient(config, clientOptions);
  const store = new ElasticsearchListingStore(client, {
    writerLeaseMs: config.writerLeaseMs,
    indexReplicas: config.replicas,
    ...storeOptions,
    alias: config.alias,
  });
  try {
    if ((await indicesOf(client, config.alias)).length === 0) onStartupProblem(new AliasNotCreatedYet(config.alias));
  } catch (error) {
    onStartupProblem(error);
  }
  return store;
}

/** No generation behind the alias yet: the first load (or `cli.ts ensure`) creates it. */
export class AliasNotCreatedYet extends Error {
  constructor(alias: string) {
    super(`the alias ${alias} does not exist yet; the first load, or \`cli.ts ensure\`, creates it`);
    this.name = 'AliasNotCreatedYet';
  }
}

function warnAtStartup(error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(`Elasticsearch: could not check the index behind the alias at start-up (${reason}); listing requests answer 503 until it is reachable.`, {
    code: 'ANNONCES_ES_STARTUP',
  });
}
