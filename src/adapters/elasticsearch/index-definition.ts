/**
 * The index definition (settings + mappings) lives in mappings/annonces.json so operators can read
 * and diff it without TypeScript; this module loads it and names the concrete indices.
 *
 * Concrete indices are `<alias>-v<N>` (N = generation, 1, 2, ...) and the service only ever talks to
 * the alias: a reindex builds generation N+1 and swaps the alias atomically (aliases.ts).
 */
import { readFileSync } from 'node:fs';
import type { estypes } from '@elastic/elasticsearch';

export interface IndexDefinition {
  settings: estypes.IndicesIndexSettings & { index: Record<string, unknown> };
  mappings: estypes.MappingTypeMapping & { _meta: { mapping_version: number } };
}

const DEFINITION_FILE = new URL('../../../mappings/annonces.json', import.meta.url);

export function loadIndexDefinition(file: URL | string = DEFINITION_FILE): IndexDefinition {
  return JSON.parse(readFileSync(file, 'utf8')) as IndexDefinition;
}

/**
 * The definition with an explicit replica count (ES_INDEX_REPLICAS) instead of the file's
 * `auto_expand_replicas: 0-1`, which suits one node but, on a cluster, drops replicas when a node
 * leaves and copies them whole again when it is back. Unchanged without a count.
 */
export function withReplicas(definition: IndexDefinition, replicas: number | undefined): IndexDefinition {
  if (replicas === undefined) return definition;
  const index = { ...definition.settings.index, auto_expand_replicas: 'false', number_of_replicas: replicas };
  return { ...definition, settings: { ...definition.settings, index } };
}

export function indexName(alias: string, generation: number): string {
  return `${alias}-v${generation}`;
}

/** Generation of a concrete index of this alias, or null for an unrelated name. */
export function generationOf(alias: string, index: string): number | null {
  const prefix = `${alias}-v`;
  if (!index.startsWith(prefix)) return null;
  const rest = index.slice(prefix.length);
  return /^[1-9]\d{0,8}$/.test(rest) ? Number(rest) : null;
}

/**
 * Listings one primary shard holds. A search runs one thread per shard and merges their hits: on a
 * catalogue that one shard can hold, more shards only add that merge and their fixed costs (a page
 * read from one shard answered 16 to 29 % more requests a second than from three). A shard of this
 * many documents stays within the few tens of GB the Elasticsearch reference advises.
 */
export const LISTINGS_PER_SHARD = 5_000_000;

/** The primary shards for a catalogue of `listings`: one per LISTINGS_PER_SHARD, at least one. */
export function shardsFor(listings: number): number {
  return Math.max(1, Math.ceil(listings / LISTINGS_PER_SHARD));
}

/** The definition with `shards` primaries (a reindex grows or shrinks the next generation with it). */
export function withShards(definition: IndexDefinition, shards: number): IndexDefinition {
  if (!Number.isInteger(shards) || shards < 1 || shards > 1024) throw new RangeError(`a shard count is an integer from 1 to 1024, got ${shards}`);
  return { ...definition, settings: { ...definition.settings, index: { ...definition.settings.index, number_of_shards: shards } } };
}
