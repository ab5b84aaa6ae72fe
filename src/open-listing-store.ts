/**
 * Opens the listings store the configuration names: Elasticsearch when ES_URL is set, else SQLite.
 * The one place outside the adapters that knows the engines: the API holds the store as its
 * ListingReader, the indexer as its ListingIndex, and the indexer's maintenance commands call
 * the engine's own procedure through reindexListingStore.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config/config.js';
import type { ListingStore } from './core/ports/listing-store.js';
import type { StoreStatus } from './core/ports/store-status.js';
import { SqliteListingStore, type SqliteListingStoreOptions } from './adapters/sqlite-listings/listing-store.js';

/**
 * `sqlite`: options of the SQLite store (the indexer sizes its own page cache). `use`: `serve` (the
 * API: a request fails fast when the cluster is in trouble) or `batch` (the indexer's commands: a
 * slow read is waited for and retried, BATCH_CLIENT_OPTIONS).
 */
export async function openListingStore(config: Config, sqlite: SqliteListingStoreOptions = {}, use: 'serve' | 'batch' = 'serve'): Promise<ListingStore> {
  if (config.elasticsearch) {
    const { openElasticsearchStore } = await import('./adapters/elasticsearch/open.js');
    const { BATCH_CLIENT_OPTIONS } = await import('./adapters/elasticsearch/client.js');
    return openElasticsearchStore(config.elasticsearch, use === 'batch' ? { client: BATCH_CLIENT_OPTIONS } : {});
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteListingStore(config.listingsFile, sqlite);
}

/**
 * The embedded store of a folder (its listings.sqlite, as DATA_DIR would hold it), whatever ES_URL
 * says: the dedup evaluations load scratch stores of their own there.
 */
export function openFolderListingStore(dataDir: string): ListingStore {
  mkdirSync(dataDir, { recursive: true });
  return new SqliteListingStore(path.join(dataDir, 'listings.sqlite'));
}

/**
 * `npm run indexer -- reindex`. Elasticsearch: a new generation of the index built from mappings/
 * and the alias swapped (aliases.ts reindex), under the writer lock since writes reaching the old
 * generation during the copy would be lost. SQLite: the full-text index and the changed indexes
 * rebuilt, then ANALYZE (SqliteListingStore.rebuildIndexes). Returns the command's report.
 */
export async function reindexListingStore(config: Config, onProgress: (copied: number) => void, options: { shards?: number | null } = {}): Promise<unknown> {
  if (config.elasticsearch) {
    const { BATCH_CLIENT_OPTIONS, createElasticsearchClient } = await import('./adapters/elasticsearch/client.js');
    const { reindexUnderLock } = await import('./adapters/elasticsearch/locked-reindex.js');
    const { alias, writerLeaseMs, replicas } = config.elasticsearch;
    const client = createElasticsearchClient(config.elasticsearch, BATCH_CLIENT_OPTIONS);
    try {
      return await reindexUnderLock(client, { alias, writerLeaseMs, replicas, onProgress, shards: options.shards });
    } finally {
      await client.close();
    }
  }
  const store = new SqliteListingStore(config.listingsFile);
  try {
    const started = Date.now();
    store.rebuildIndexes();
    return { backend: 'sqlite', listings: await store.count(), seconds: (Date.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}

/**
 * `npm run indexer -- status`: the store's state (ListingIndex.storeStatus) without creating
 * anything: no Elasticsearch alias, no SQLite file. Null when the SQLite store does not exist.
 */
export async function listingStoreStatus(config: Config): Promise<StoreStatus | null> {
  if (config.elasticsearch) {
    const { createElasticsearchClient } = await import('./adapters/elasticsearch/client.js');
    const { ElasticsearchListingStore } = await import('./adapters/elasticsearch/listing-store.js');
    const store = new ElasticsearchListingStore(createElasticsearchClient(config.elasticsearch), { alias: config.elasticsearch.alias });
    try {
      return await store.storeStatus();
    } finally {
      await store.close();
    }
  }
  if (!existsSync(config.listingsFile)) return null;
  const store = new SqliteListingStore(config.listingsFile);
  try {
    return await store.storeStatus();
  } finally {
    await store.close();
  }
}
