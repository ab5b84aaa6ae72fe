/**
 * The Elasticsearch cluster of the tests: the one of ES_URL (with ES_API_KEY or ES_USERNAME /
 * ES_PASSWORD, ES_CA_FILE), e.g. the node `npm run es:start` starts. Every store a test opens works
 * in an alias of its own, created with the production index definition and deleted, by the names of
 * its concrete indices, when the store is closed: clusters refuse wildcard deletes by default
 * (`action.destructive_requires_name`), and a test must never touch the service's `annonces`.
 */
import { randomBytes } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import { createElasticsearchClient, type ElasticsearchConnection } from '../../src/adapters/elasticsearch/client.js';
import { ensureIndex, indicesOf } from '../../src/adapters/elasticsearch/aliases.js';
import { indexName, loadIndexDefinition } from '../../src/adapters/elasticsearch/index-definition.js';
import { stateIndexOf } from '../../src/adapters/elasticsearch/writer-lock.js';
import { MAP_BIN_FIELD } from '../../src/adapters/elasticsearch/read-model.js';
import { ElasticsearchListingStore, type ElasticsearchListingStoreOptions } from '../../src/adapters/elasticsearch/listing-store.js';

export function elasticsearchConnection(env: NodeJS.ProcessEnv = process.env): ElasticsearchConnection | null {
  if (!env.ES_URL) return null;
  return { url: env.ES_URL, apiKey: env.ES_API_KEY, username: env.ES_USERNAME, password: env.ES_PASSWORD, caFile: env.ES_CA_FILE };
}

/**
 * The cluster with security on (TLS, the indexer's least-privilege role) that the conformance suites
 * also run on: ES_SECURE_URL, ES_SECURE_CA_FILE and ES_SECURE_API_KEY (or ES_SECURE_USERNAME and
 * ES_SECURE_PASSWORD), as `.ci/run` sets them from `scripts/elasticsearch.sh start --security`.
 */
export function securedConnection(env: NodeJS.ProcessEnv = process.env): ElasticsearchConnection | null {
  if (!env.ES_SECURE_URL) return null;
  return {
    url: env.ES_SECURE_URL,
    apiKey: env.ES_SECURE_API_KEY,
    username: env.ES_SECURE_USERNAME,
    password: env.ES_SECURE_PASSWORD,
    caFile: env.ES_SECURE_CA_FILE,
  };
}

/** Why the Elasticsearch half of a suite cannot run here, or null when it can. */
export function elasticsearchMissing(): string | null {
  return elasticsearchConnection() ? null : 'ES_URL is not set (npm run es:start starts a local node and prints it)';
}

/** Why the suites cannot run on a cluster with security on here, or null when they can. */
export function securedMissing(): string | null {
  return securedConnection() ? null : 'ES_SECURE_URL is not set (see docs/elasticsearch.md, "Tests with security on")';
}

/** The indexer's role covers the service's alias pattern only: a test alias there starts with it. */
export const SECURED_ALIAS_PREFIX = 'annonces-test';

let aliasCounter = 0;

/** A fresh alias name for one test store: `<prefix>-<pid>-<n>-<random>`, lower case as indices must be. */
export function testAlias(prefix: string): string {
  return `${prefix}-${process.pid}-${++aliasCounter}-${randomBytes(3).toString('hex')}`;
}

/** Deletes every concrete index behind the alias, and its writer lock's index, by name. */
export async function deleteAliasIndices(client: ElasticsearchListingStore['client'], alias: string): Promise<void> {
  const indices = await indicesOf(client, alias);
  await client.indices.delete({ index: [...indices, stateIndexOf(alias)], ignore_unavailable: true });
}

/**
 * A store on a new alias of the test cluster (`secured`: of the cluster with security on, with the
 * indexer's credentials). `refreshOnWrite` (default true) makes every write visible to the next
 * search, as it is on SQLite; closing the store deletes its indices.
 */
export async function openTestElasticsearchStore(
  prefix = 'test',
  options: Partial<ElasticsearchListingStoreOptions> = {},
  secured = false,
): Promise<ElasticsearchListingStore> {
  const connection = secured ? securedConnection() : elasticsearchConnection();
  if (!connection) throw new Error((secured ? securedMissing() : elasticsearchMissing())!);
  const client = createElasticsearchClient(connection, { requestTimeout: 60_000 });
  const alias = testAlias(secured ? `${SECURED_ALIAS_PREFIX}-${prefix}` : prefix);
  await ensureIndex(client, alias);
  return deletingOnClose(new ElasticsearchListingStore(client, { refreshOnWrite: true, ...options, alias }));
}

/** The store, its close deleting its alias's indices first. */
function deletingOnClose(store: ElasticsearchListingStore): ElasticsearchListingStore {
  const close = store.close.bind(store);
  store.close = async () => {
    try {
      await deleteAliasIndices(store.client, store.alias);
    } finally {
      await close();
    }
  };
  return store;
}

/**
 * A store on a new alias whose index is made from an older mapping: the current mapping file without
 * `fields` (left out of `_source.excludes` too) and with the `added` ones it had then, tagged
 * `version`, as a cluster has it until `reindex`. Below mapping 8 the map point is the text alone
 * (`map_json`), without `map_bin`. Null without a cluster (the caller skips). Closing the store deletes
 * its indices.
 */
export async function openOlderMappingStore(
  prefix: string,
  version: number,
  fields: readonly string[],
  added: Record<string, estypes.MappingProperty> = {},
): Promise<ElasticsearchListingStore | null> {
  const connection = elasticsearchConnection();
  if (!connection) {
    if (process.env.REQUIRE_ALL_ENGINES) throw new Error(elasticsearchMissing()!);
    return null;
  }
  const client = createElasticsearchClient(connection, { requestTimeout: 60_000 });
  const alias = testAlias(prefix);
  const definition = loadIndexDefinition();
  const left = version < 8 ? [...fields, MAP_BIN_FIELD] : fields;
  const properties = { ...definition.mappings.properties, ...added };
  for (const field of left) delete properties[field];
  const kept = definition.mappings._source?.excludes?.filter((field) => !left.includes(field)) ?? [];
  const excludes = [...kept, ...Object.keys(added)];
  await client.indices.create({
    index: indexName(alias, 1),
    settings: definition.settings,
    mappings: { ...definition.mappings, _meta: { ...definition.mappings._meta, mapping_version: version }, _source: { excludes }, properties },
    aliases: { [alias]: {} },
  });
  return deletingOnClose(new ElasticsearchListingStore(client, { alias, refreshOnWrite: true }));
}
