/**
 * ListingIndex.storeStatus and recordLoad on Elasticsearch: counts by status from the alias, the
 * mapping version of each index behind it against mappings/annonces.json, and the last load's report
 * and the writer lock from the alias's state index (not indexed: `dynamic: false`).
 */
import type { Client } from '@elastic/elasticsearch';
import { LISTING_STATUSES } from '../../core/model/annonce.js';
import { countsByStatus, REINDEX_COMMAND, type StoreStatus, writerLockStatus } from '../../core/ports/store-status.js';
import { statusOf } from './errors.js';
import { loadIndexDefinition } from './index-definition.js';
import { ensureStateIndex, readLock, stateIndexOf } from './writer-lock.js';

const LAST_LOAD = 'last-load';

export async function recordElasticsearchLoad(client: Client, alias: string, report: Record<string, unknown>, at: number): Promise<void> {
  await ensureStateIndex(client, alias);
  await client.index({ index: stateIndexOf(alias), id: LAST_LOAD, document: { at: new Date(at).toISOString(), report } });
}

/** `indices`: the concrete indices behind the alias (at least one). */
export async function elasticsearchStoreStatus(
  client: Client,
  alias: string,
  indices: string[],
  groupingPending: boolean,
): Promise<Omit<StoreStatus, 'backend'>> {
  const counted = await client.search({
    index: alias,
    size: 0,
    track_total_hits: true,
    aggs: { by_status: { terms: { field: 'status', size: LISTING_STATUSES.length + 5 } } },
  });
  const buckets = (counted.aggregations?.by_status as { buckets: { key: string; doc_count: number }[] } | undefined)?.buckets ?? [];
  const mappings = await client.indices.getMapping({ index: indices });
  const expected = loadIndexDefinition().mappings._meta.mapping_version;
  const behind: StoreStatus['behind'] = [];
  for (const [index, { mappings: mapping }] of Object.entries(mappings)) {
    const version = (mapping._meta as { mapping_version?: number } | undefined)?.mapping_version ?? null;
    if (version === null || version < expected) {
      behind.push({ what: `index ${index} has mapping version ${version ?? 'none'}, mappings/annonces.json ${expected}`, command: REINDEX_COMMAND });
    }
  }
  const lock = await readLock(client, alias);
  return {
    listings: countsByStatus(
      LISTING_STATUSES,
      buckets.map((bucket) => [bucket.key, bucket.doc_count]),
    ),
    last_load: await lastLoad(client, alias),
    writer_lock: lock === null ? null : writerLockStatus(lock.document.holder),
    grouping_pending: groupingPending,
    behind,
  };
}

async function lastLoad(client: Client, alias: string): Promise<StoreStatus['last_load']> {
  try {
    const response = await client.get<NonNullable<StoreStatus['last_load']>>({ index: stateIndexOf(alias), id: LAST_LOAD });
    return response.found && response._source ? response._source : null;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}
