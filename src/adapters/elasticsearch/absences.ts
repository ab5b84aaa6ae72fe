/**
 * The snapshot loads' reads on Elasticsearch (ListingIndex.activeInScope): a scope's active listings
 * with their absence counts, from doc values only (no `_source`), a search_after page at a time, and
 * whether the indices behind the alias can keep the counts at all.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { Absence, SnapshotScope } from '../../core/ports/listing-index.js';
import { StoreBehindError } from '../../core/ports/store-status.js';
import { guarded } from './errors.js';
import { loadIndexDefinition } from './index-definition.js';
import { ABSENT_AT_FIELD, ABSENT_LOADS_FIELD, mappingHasAbsences } from './read-model.js';

/** Ids read per request (at most the index's max_result_window, and far below it). */
const SCOPE_PAGE = 10_000;

export async function readActiveInScope(client: Client, alias: string, scope: SnapshotScope): Promise<Map<string, Absence>> {
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { status: 'active' } }, { term: { 'content.source': scope.source } }];
  if (scope.departments !== null) filter.push({ terms: { 'content.department': [...scope.departments] } });
  const counts = new Map<string, Absence>();
  let after: estypes.SortResults | undefined;
  for (;;) {
    const response = await guarded(() =>
      client.search({
        index: alias,
        query: { bool: { filter } },
        sort: [{ id: { order: 'asc' } }],
        size: SCOPE_PAGE,
        track_total_hits: false,
        _source: false,
        stored_fields: '_none_',
        docvalue_fields: [ABSENT_LOADS_FIELD, ABSENT_AT_FIELD],
        filter_path: ['hits.hits.sort', 'hits.hits.fields'],
        ...(after ? { search_after: after } : {}),
      }),
    );
    const hits = response.hits?.hits ?? [];
    for (const hit of hits) {
      const fields = hit.fields as Record<string, unknown[]> | undefined;
      counts.set(String(hit.sort![0]), { loads: Number(fields?.[ABSENT_LOADS_FIELD]?.[0] ?? 0), at: Number(fields?.[ABSENT_AT_FIELD]?.[0] ?? 0) });
    }
    if (hits.length < SCOPE_PAGE) return counts;
    after = hits[hits.length - 1].sort;
  }
}

/** Throws StoreBehindError when an index behind the alias was made from a mapping without the counts. */
export async function assertKeepsAbsences(client: Client, alias: string): Promise<void> {
  const mappings = await guarded(() => client.indices.getMapping({ index: alias }));
  const older = Object.entries(mappings).filter(([, index]) => !mappingHasAbsences(index.mappings));
  if (older.length === 0) return;
  const version = loadIndexDefinition().mappings._meta.mapping_version;
  throw new StoreBehindError(
    `the index ${older.map(([name]) => name).join(', ')} cannot keep the absence counts of a snapshot load (made from a mapping older than version ${version})`,
  );
}
