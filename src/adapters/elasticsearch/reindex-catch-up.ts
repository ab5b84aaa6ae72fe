/**
 * What a reindex must copy again after its point in time: every document the live generation
 * received since. Each write to a shard takes the next sequence number of that shard (kept across a
 * primary's failover), so the documents written since are, shard by shard, those whose `_seq_no`
 * is above the shard's highest when the copy began. A group-field rewrite, which keeps its
 * change_seq and changed_at, is found this way too.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import type { ListingSource } from './document.js';

/** Shard number -> its highest sequence number, as the primaries report it now. */
export type ShardMarks = Map<number, number>;

export async function shardMarks(client: Client, index: string): Promise<ShardMarks> {
  const stats = await client.indices.stats({ index, level: 'shards', metric: 'docs' });
  const shards = (stats.indices?.[index]?.shards ?? {}) as Record<string, estypes.IndicesStatsShardStats[]>;
  const marks: ShardMarks = new Map();
  for (const [shard, copies] of Object.entries(shards)) {
    const primary = copies.find((copy) => copy.routing?.primary);
    marks.set(Number(shard), primary?.seq_no?.max_seq_no ?? -1);
  }
  return marks;
}

/** Pages every document of `index` written after `marks` through `copyPage`; says how many. */
export async function catchUp(
  client: Client,
  index: string,
  marks: ShardMarks,
  pageSize: number,
  copyPage: (hits: estypes.SearchHit<ListingSource>[]) => Promise<void>,
): Promise<number> {
  await client.indices.refresh({ index });
  let found = 0;
  for (const [shard, mark] of marks) {
    let after: estypes.SortResults | undefined;
    for (;;) {
      const page = await client.search<ListingSource>({
        index,
        preference: `_shards:${shard}`,
        query: { range: { _seq_no: { gt: mark } } },
        sort: [{ _seq_no: { order: 'asc' } }],
        size: pageSize,
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      });
      const hits = page.hits.hits;
      if (hits.length > 0) await copyPage(hits);
      found += hits.length;
      if (hits.length < pageSize) break;
      after = hits[hits.length - 1].sort;
    }
  }
  return found;
}
