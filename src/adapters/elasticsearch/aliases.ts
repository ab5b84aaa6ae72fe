/**
 * Index lifecycle behind the alias: the service reads and writes `annonces`, an alias on one concrete
 * index `annonces-v<N>`. A new mapping is rolled out by building generation N+1 and moving the
 * alias in ONE `_aliases` request (remove + add are applied atomically), so readers never see a
 * missing or half-built index, and a bad generation is rolled back by moving the alias back.
 */
import type { Client, estypes } from '@elastic/elasticsearch';
import { fromSource, type ListingSource } from './document.js';
import { errorTypeOf, statusOf } from './errors.js';
import { generationOf, indexName, loadIndexDefinition, type IndexDefinition } from './index-definition.js';
import { BulkWriter, type BulkWriterOptions, type DocumentFailure } from './bulk-writer.js';
import { catchUp, shardMarks } from './reindex-catch-up.js';

/** Concrete indices the alias points to (none when the alias does not exist). */
export async function indicesOf(client: Client, alias: string): Promise<string[]> {
  try {
    return Object.keys(await client.indices.getAlias({ name: alias })).sort();
  } catch (error) {
    if (statusOf(error) === 404) return [];
    throw error;
  }
}

/** The next free generation: one above every `<alias>-v<N>` that exists, open or closed. */
export async function nextGeneration(client: Client, alias: string): Promise<number> {
  const resolved = await client.indices.resolveIndex({ name: `${alias}-v*`, expand_wildcards: 'all' });
  const generations = resolved.indices.map((i) => generationOf(alias, i.name)).filter((n): n is number => n !== null);
  return Math.max(0, ...generations) + 1;
}

/**
 * Makes sure the alias exists: creates the first generation with the alias in the same request, so
 * there is never an index without its alias. Two processes starting together are fine: the loser's
 * "already exists" is success.
 */
export async function ensureIndex(client: Client, alias: string, definition: IndexDefinition = loadIndexDefinition()): Promise<string> {
  const existing = await indicesOf(client, alias);
  if (existing.length) return existing[existing.length - 1];
  const index = indexName(alias, await nextGeneration(client, alias));
  try {
    await client.indices.create({
      index,
      settings: definition.settings,
      mappings: definition.mappings,
      aliases: { [alias]: { is_write_index: true } },
    });
  } catch (error) {
    if (errorTypeOf(error) !== 'resource_already_exists_exception') throw error;
  }
  return index;
}

/**
 * Settings while a generation is being filled: no periodic refresh (each refresh writes a segment)
 * and no replica (replicas are copied once at the end instead of indexing every document twice).
 */
export function bulkLoadSettings(definition: IndexDefinition): estypes.IndicesIndexSettings {
  return { ...definition.settings, index: { ...definition.settings.index, refresh_interval: '-1', auto_expand_replicas: 'false', number_of_replicas: 0 } };
}

/** The settings of the definition that bulkLoadSettings relaxed, back to their normal values. */
export function servingSettings(definition: IndexDefinition): estypes.IndicesIndexSettings {
  const index = definition.settings.index;
  const replicas = index.number_of_replicas === undefined ? {} : { number_of_replicas: index.number_of_replicas };
  return {
    index: { refresh_interval: index.refresh_interval ?? '1s', auto_expand_replicas: index.auto_expand_replicas ?? '0-1', ...replicas },
  } as estypes.IndicesIndexSettings;
}

export interface ReindexOptions {
  alias: string;
  definition?: IndexDefinition;
  /** Documents per page read from the live generation. */
  pageSize?: number;
  /** Slices of the point in time read side by side. */
  slices?: number;
  writer?: Omit<BulkWriterOptions, 'index'>;
  onProgress?: (copied: number) => void;
  /** How long the new generation may take to be green (its replicas copied) before the swap. */
  greenTimeout?: string;
  /**
   * Runs the catch-up and the swap with writers kept out (reindexUnderLock passes the writer lock);
   * the copy before it runs while loads go on. Default: run them as they are (writers stopped).
   */
  underLock?: <T>(work: () => Promise<T>) => Promise<T>;
}

const PIT_KEEP_ALIVE = '5m';
const DEFAULT_SLICES = 2;

/** Pages one slice of a point in time through `copyPage`, until the slice is exhausted. */
async function copySlice(
  client: Client,
  pitId: string,
  slice: { id: number; max: number },
  pageSize: number,
  copyPage: (hits: estypes.SearchHit<ListingSource>[]) => Promise<void>,
): Promise<void> {
  let id = pitId;
  let after: estypes.SortResults | undefined;
  for (;;) {
    const page = await client.search<ListingSource>({
      pit: { id, keep_alive: PIT_KEEP_ALIVE },
      ...(slice.max > 1 ? { slice: { id: String(slice.id), max: slice.max } } : {}),
      size: pageSize,
      sort: ['_shard_doc'],
      track_total_hits: false,
      ...(after ? { search_after: after } : {}),
    });
    id = page.pit_id ?? id;
    const hits = page.hits.hits;
    if (hits.length > 0) await copyPage(hits);
    if (hits.length < pageSize) return;
    after = hits[hits.length - 1].sort;
  }
}

export interface ReindexReport {
  from: string;
  to: string;
  copied: number;
  /** Documents written to the live generation during the copy, copied again under the lock. */
  caught_up: number;
}

export class ReindexError extends Error {
  constructor(
    message: string,
    readonly target: string,
    readonly failures: DocumentFailure[] = [],
  ) {
    super(message);
    this.name = 'ReindexError';
  }
}

/**
 * Builds the next generation from the live one with the current mapping file and the current
 * document mapping (derived keys such as `vis` or `city_norm` are recomputed by toSource): a point
 * in time copied in slices while loads go on, then, with writers kept out (`underLock`), the
 * documents written meanwhile copied again (reindex-catch-up.ts), and the alias swapped once the
 * new generation is green. The old generation is kept for a rollback; delete it by hand. Nothing
 * is swapped when a document failed, the counts differ or the new generation does not become green.
 */
export async function reindex(client: Client, options: ReindexOptions): Promise<ReindexReport> {
  const { alias } = options;
  const definition = options.definition ?? loadIndexDefinition();
  const pageSize = options.pageSize ?? 1000;
  const live = await indicesOf(client, alias);
  if (live.length !== 1) throw new ReindexError(`alias ${alias} points to ${live.length} indices (${live.join(', ')}); expected exactly one`, '');
  const from = live[0];
  const to = indexName(alias, await nextGeneration(client, alias));
  await client.indices.create({ index: to, settings: bulkLoadSettings(definition), mappings: definition.mappings });

  const writer = new BulkWriter(client, { ...options.writer, index: to, requireAlias: false });
  let copied = 0;
  const copyPage = async (hits: estypes.SearchHit<ListingSource>[]) => {
    const report = await writer.write(hits.map((hit) => fromSource(hit._source!)));
    if (report.failures.length)
      throw new ReindexError(`${report.failures.length} documents could not be copied to ${to}; alias not moved`, to, report.failures);
    copied += report.written;
    options.onProgress?.(copied);
  };
  // One point in time read in slices side by side: every slice sees the same state of the live
  // generation, and pages follow the index order (_shard_doc) instead of a sort on a field. The
  // shards' marks are taken first: whatever is written after them is copied again at the end.
  const marks = await shardMarks(client, from);
  const pit = await client.openPointInTime({ index: from, keep_alive: PIT_KEEP_ALIVE });
  try {
    const slices = options.slices ?? DEFAULT_SLICES;
    await Promise.all(Array.from({ length: slices }, (_, id) => copySlice(client, pit.id, { id, max: slices }, pageSize, copyPage)));
  } finally {
    await client.closePointInTime({ id: pit.id }).catch(() => {});
  }

  const underLock = options.underLock ?? (<T>(work: () => Promise<T>) => work());
  return underLock(async () => {
    const caughtUp = await catchUp(client, from, marks, pageSize, copyPage);
    await swapWhenGreen(client, { alias, from, to, definition, greenTimeout: options.greenTimeout });
    return { from, to, copied, caught_up: caughtUp };
  });
}

/** The new generation made ready to serve, checked, then put behind the alias in one request. */
async function swapWhenGreen(
  client: Client,
  { alias, from, to, definition, greenTimeout = '10m' }: { alias: string; from: string; to: string; definition: IndexDefinition; greenTimeout?: string },
): Promise<void> {
  await client.indices.putSettings({ index: to, settings: servingSettings(definition) });
  // Swapped only once every copy of every shard exists: the alias never moves to an index that a
  // node lost now would leave without a primary.
  const health = await client.cluster.health({ index: to, wait_for_status: 'green', timeout: greenTimeout });
  if (health.timed_out || health.status !== 'green') {
    throw new ReindexError(`${to} is ${health.status}, not green, after ${greenTimeout} (replicas not allocated?); alias not moved`, to);
  }
  await client.indices.refresh({ index: [from, to] });
  const [before, after_] = await Promise.all([client.count({ index: from }), client.count({ index: to })]);
  if (before.count !== after_.count) {
    throw new ReindexError(`${to} holds ${after_.count} documents, ${from} ${before.count}: was the indexer running? alias not moved`, to);
  }
  await client.indices.updateAliases({
    actions: [{ remove: { index: from, alias } }, { add: { index: to, alias, is_write_index: true } }],
  });
}
