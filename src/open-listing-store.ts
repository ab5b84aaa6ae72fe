/** Chooses the ListingStore backend from the configuration: Elasticsearch when ES_URL is set, else SQLite. */
import { mkdirSync } from 'node:fs';
import type { Config } from './config/config.js';
import type { ListingStore } from './core/ports/listing-store.js';
import { SqliteListingStore, type SqliteListingStoreOptions } from './adapters/sqlite-listings/listing-store.js';

/** `sqlite`: options of the SQLite store (the indexer sizes its own page cache). */
export async function openListingStore(config: Config, sqlite: SqliteListingStoreOptions = {}): Promise<ListingStore> {
  if (config.elasticsearch) {
    const { openElasticsearchStore } = await import('./adapters/elasticsearch/open.js');
    return openElasticsearchStore(config.elasticsearch);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteListingStore(config.listingsFile, sqlite);
}
