/**
 * Over 300 lines on purpose: one class implementing both listing ports for one engine; its bodies and mappings live in modules beside it.
 * ListingReader and ListingIndex on Elasticsearch: the production engine (docs/elasticsearch.md).
 * Reads go to the alias with the bodies of the pure builders; writes go through the bulk writer.
 * Same semantics as the SQLite adapter; the shared conformance suite runs against both.
 *
 * Visibility of writes: Elasticsearch is near-real-time. GET and mget are real-time; searches see a
 * write after the next refresh (index.refresh_interval, or -1 during a big load). So:
 * - `maxChangeSeq` and `count`, which the indexer reads right after its own writes, refresh first
 *   when this store wrote since the last refresh; `findBlocks` and `withdrawnInBlocks` only when
 *   the blocks they read hold such writes (unrefreshed-writes.ts);
 * - with `refreshOnWrite` (tests, small tools) every `upsertMany` refreshes before returning;
 * - the API needs neither: the feed waits 120 s before serving a change anyway.
 */
import { cellQuotas, sampledResult, samplingCells } from '../../core/query/map-sampling.js';
import { buildCellPointsBody, CELL_POINTS_FILTER, cellCountsAggs, cellPointsOf, cellTotalsOf } from './map-cells-body.js';
import {
  boxPointsBody,
  boxThreshold,
  boxTotalBody,
  cellCountsOf,
  cellShares,
  firstThresholds,
  KEY_SPAN,
  SAMPLE_COUNTS_FILTER,
  SAMPLE_POINTS_FILTER,
  sampleCountsBody,
  samplePointsBody,
  widened,
} from './map-sample-body.js';
import type { FacetsQuery, FacetsResult } from '../../core/query/facets.js';
import { buildFacetsBody, facetsOf } from './facets-body.js';
import type { Client, estypes } from '@elastic/elasticsearch';
import type { StoredListing } from '../../core/model/stored.js';
import type { BoundingBox, FeedQuery, MapQuery, SearchQuery, SearchResult, SortPosition, WithdrawnQuery } from '../../core/query/query.js';
import type { ListingReader, MapResult, StoreHealth } from '../../core/ports/listing-reader.js';
import {
  catalogueThroughFlows,
  type IndexCapabilities,
  type ListingIndex,
  type SnapshotScope,
  type Absence,
  type BlockCandidate,
  type WriteFailure,
} from '../../core/ports/listing-index.js';
import { assertKeepsAbsences, readActiveInScope } from './absences.js';
import { mapPointJson, presentedWhole, type PresentedDetail } from '../../core/model/present.js';
import { BulkWriter, type BulkWriteReport, type BulkWriterOptions, type DocumentFailure } from './bulk-writer.js';
import { fromMapHit, fromSource, MAP_POINT_FIELDS, PAGE_SOURCE, type ListingSource } from './document.js';
import {
  ANY_FORM_MAP_POINT_DOC_VALUES,
  ANY_FORM_MAP_TEXT_DOC_VALUES,
  commonLayout,
  DETAIL_STORED_FIELDS,
  layoutHolds,
  MAP_POINT_DOC_VALUES,
  MAP_RESPONSE_FILTER,
  mapPointOf,
  PAGE_RESPONSE_FILTER,
  presentedOf,
  readModelLayoutOf,
} from './read-model.js';
import { listingsOfHits } from './page-hits.js';
import { DeepPageGate } from './deep-pages.js';
import { BACKEND, errorTypeOf, guarded, statusOf } from './errors.js';
import { buildSearchBody, type SearchBody } from './search-body.js';
import { buildMapBody, sourceMapBody } from './map-body.js';
import { buildFeedBody } from './feed-body.js';
import { buildWithdrawnBody } from './withdrawn-body.js';
import {
  withdrawnStats,
  type ClustersQuery,
  type ClustersResult,
  type StatsQuery,
  type StatsResult,
  type WithdrawnValues,
} from '../../core/query/aggregates.js';
import { buildClustersBody, cellOfBucket, type CellBucket } from './clusters-body.js';
import { activeStatsOf, buildStatsBody, buildWithdrawnValuesBody, WITHDRAWN_PAGE, withdrawnValuesOf, type WithdrawnSource } from './stats-body.js';
import { ensureIndex, indicesOf } from './aliases.js';
import { loadIndexDefinition, withReplicas } from './index-definition.js';
import type { WriterLock, WriterLockRequest } from '../../core/ports/writer-lock.js';
import { clearJournal, readJournal, writeJournal, type JournalVersion } from './write-journal.js';
import { elasticsearchStoreStatus, recordElasticsearchLoad } from './store-status.js';
import type { StoreStatus } from '../../core/ports/store-status.js';
import { UnrefreshedWrites } from './unrefreshed-writes.js';
import { awaitNodeTask } from './node-task.js';
import { prepareBlockKeys } from '../../core/dedup/block-key.js';
import { featuresOf } from '../../core/dedup/features.js';
import { CANDIDATE_FIELDS, candidateOfHit, type CandidateHit } from './block-candidates.js';
import { acquireElasticsearchWriterLock, ensureStateIndex, readLock, stateIndexOf, type FencedWriterLock } from './writer-lock.js';

export interface ElasticsearchListingStoreOptions {
  alias: string;
  /** Refresh after every write so the next search sees it (tests); the API and the indexer leave it off. */
  refreshOnWrite?: boolean;
  /**
   * Documents the cluster refused for good (mapping error, stale version, still overloaded after
   * every retry), told as they happen; upsertMany also returns them, and the indexer writes them to
   * its rejects file, so a refusal is never silent.
   */
  onDocumentFailure?: (failure: DocumentFailure) => void | Promise<void>;
  writer?: Omit<BulkWriterOptions, 'index'>;
  /** Deep pages read at once (deep-pages.ts DEEP_PAGES_AT_ONCE). */
  deepPagesAtOnce?: number;
  /** The writer lock's lease (writer-lock.ts); default DEFAULT_LEASE_MS. */
  writerLeaseMs?: number;
  /** ES_INDEX_REPLICAS, for the first generation a writer creates when the alias is missing. */
  indexReplicas?: number;
}

const GET_MANY_CHUNK = 1000;
/** At most this many listings read for a sample (an index's default max_result_window is 10 000). */
const MAX_SAMPLE_READ = 10_000;
const shareResult = (texts: Buffer[]): MapResult => ({ total: texts.length, count: texts.length, texts });

/** A listing found by a block search, with the block key of its document. */
interface BlockHit {
  listing: StoredListing;
  blockKey: string | null;
}

/** How a block search asks for its hits and reads each one (searchById). */
interface HitReader<T> {
  request: Partial<estypes.SearchRequest>;
  hit(hit: estypes.SearchHit<ListingSource>): T;
  idOf(found: T): string;
}

const WHOLE_HITS: HitReader<BlockHit> = {
  request: {},
  hit: (hit) => ({ listing: fromSource(hit._source!), blockKey: hit._source!.block_key }),
  idOf: (found) => found.listing.id,
};

const CANDIDATE_HITS: HitReader<CandidateHit> = {
  request: CANDIDATE_FIELDS,
  hit: candidateOfHit,
  idOf: (found) => ('candidate' in found ? found.candidate.id : found.whole.id),
};

/** The active listings of some blocks. */
function activeInBlocks(blockKeys: string[]): estypes.QueryDslBoolQuery {
  return { filter: [{ terms: { block_key: blockKeys } }, { term: { status: 'active' } }] };
}

/** The candidate a whole listing read from its block makes. */
function wholeCandidate(listing: StoredListing, blockKey: string): BlockCandidate {
  const { id, dedup_key, change_seq, catalogue_entered_at } = listing;
  return { id, dedup_key, change_seq, catalogue_entered_at, block_key: blockKey, features: featuresOf(listing), listing };
}

/** The id of the grouping-owed mark in the alias's state index. */
const GROUPING_MARK = 'grouping-pending';
/** The id of the mark of a first build kept aside that has not written all its listings yet. */
const ASIDE_MARK = 'first-build-aside';
const BLOCK_PAGE = 1000;
/** A merged first build's segments stay under this size: the tiered merge policy's largest merged segment (5 GiB). */
const MERGED_SEGMENT_BYTES = 5 * 1024 ** 3;
/** A force merge takes about 11 s for 200 000 listings on 2 cores, minutes at several millions. */
const FORCE_MERGE_TIMEOUT_MS = 60 * 60_000;

export class ElasticsearchListingStore implements ListingReader, ListingIndex {
  readonly backend = BACKEND;
  /**
   * Stored candidates, many blocks a search (block-candidates.ts); no file to lend a thread; a first
   * build is kept aside and written once, a bulk request of a load's batch size at a time.
   */
  readonly capabilities: IndexCapabilities = {
    storedCandidates: {
      findBlockCandidates: async (blockKey) => (await this.findBlocksCandidates([blockKey])).get(blockKey)!,
      findBlocksCandidates: (blockKeys) => this.findBlocksCandidates(blockKeys),
    },
    groupWorker: null,
    firstBuildAside: {
      pageSize: 1000,
      begun: async () => {
        const mark = await this.readMark<{ change_seq_from: number }>(ASIDE_MARK);
        return mark && { changeSeqFrom: mark.change_seq_from };
      },
      setBegun: async (mark) => {
        await this.setMark(ASIDE_MARK, mark && { change_seq_from: mark.changeSeqFrom });
        // Cleared: every listing of the first build is written (duringBulkLoad merges it at its end).
        if (mark === null) this.firstBuildWritten = true;
      },
      writePage: (listings) => this.write(listings, { journaled: false }),
    },
  };
  /** The alias this store reads and writes. */
  readonly alias: string;
  /** Set when a first build kept aside has written its last listing (firstBuildAside.setBegun(null)). */
  private firstBuildWritten = false;
  /** Whether the indexes behind the alias keep the candidates' feature bytes (storesFeatureBytes). */
  private featureBytesKept: Promise<boolean> | null = null;
  /** The alias's state index exists (created once per store, not once per batch). */
  private stateIndexReady = false;
  private readonly writer: BulkWriter;
  private readonly deepPages: DeepPageGate;
  /** What this store wrote since its last refresh: its own searches may not see those writes yet. */
  private readonly unrefreshed = new UnrefreshedWrites();
  /** Report of the last upsertMany (indexer statistics). */
  lastWrite: BulkWriteReport | null = null;
  /** The writer lock this store holds: every write checks it is still held (fencing). */
  private heldLock: FencedWriterLock | null = null;

  constructor(
    readonly client: Client,
    private readonly options: ElasticsearchListingStoreOptions,
  ) {
    this.alias = options.alias;
    this.deepPages = new DeepPageGate(options.deepPagesAtOnce);
    // A bulk write retrying through an outage checks the lock before each new attempt.
    const sleep = options.writer?.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    const fencedSleep = async (ms: number) => {
      await sleep(ms);
      this.fence();
    };
    this.writer = new BulkWriter(client, { ...options.writer, sleep: fencedSleep, index: options.alias });
  }

  /** Throws WriterFencedError when this store's writer lock was lost: nothing is written after that. */
  private fence(): void {
    this.heldLock?.assertHeld();
  }

  async search(query: SearchQuery): Promise<SearchResult<StoredListing>> {
    const body = buildSearchBody(query);
    return this.deepPages.run(body.from ?? 0, () => this.page(body, query.pageSize));
  }

  /**
   * The map of a box: its points' texts from doc values, and its exact total. A box that can be cut is
   * counted first, cell by cell (no hit): when it holds more listings than the limit, its points are
   * spread over its cells (src/core/query/map-sampling.ts, map-sample-body.ts) instead of read from one
   * end of the index. The points are read in their current form (one doc value each, mapping 8); a
   * hit without it (an index of an older mapping, until `reindex`) has the box read again in any form,
   * and a document of an older form still is read from `_source`.
   */
  async map(query: MapQuery): Promise<MapResult> {
    const countsBody = sampleCountsBody(query);
    if (countsBody) {
      const counted = await guarded(() => this.client.search({ index: this.alias, ...countsBody, filter_path: SAMPLE_COUNTS_FILTER }));
      const total = totalOf(counted.hits?.total);
      if (total > query.limit) return this.sampledMap(query, total, cellCountsOf(counted.aggregations));
    }
    for (const docValues of [MAP_POINT_DOC_VALUES, ANY_FORM_MAP_TEXT_DOC_VALUES]) {
      const response = await guarded(() => this.client.search({ index: this.alias, ...buildMapBody(query, docValues), filter_path: MAP_RESPONSE_FILTER }));
      const total = totalOf(response.hits?.total);
      // A hit without the fields asked is left out of the filtered response: fewer hits, another form.
      const points = (response.hits?.hits ?? []).map((hit) => mapPointOf(hit.fields as Record<string, unknown[]> | undefined));
      if (points.length === Math.min(total, query.limit) && points.every((point) => point !== null)) {
        return { total, count: points.length, texts: points.map((point) => point!.text) };
      }
    }
    return this.mapFromSource(sourceMapBody(buildMapBody(query)));
  }

  /**
   * A capped map: the box's listings below one key threshold, each cell's quota taken from the front;
   * the cells left short (sparse ones, and about one in 40 by chance) read again below their own
   * thresholds (map-sample-body.ts), the points in their current form, then in any form when a hit lacks
   * it (an index of mapping 7 or older). An index whose listings lack the plain coordinates (an older mapping: the
   * cells' counts then miss some of the box's), or a catalogue that changed between the requests, has
   * its cells counted and read in index order instead (map-cells-body.ts).
   */
  private async sampledMap(query: MapQuery, total: number, totals: number[]): Promise<MapResult> {
    if (totals.reduce((sum, n) => sum + n, 0) === total) {
      const quotas = cellQuotas(totals, query.limit);
      const thresholds = firstThresholds(totals, quotas);
      const shares =
        (await this.sharesBelowThresholds(query, quotas, totals, thresholds, MAP_POINT_DOC_VALUES)) ??
        (await this.sharesBelowThresholds(query, quotas, totals, thresholds, ANY_FORM_MAP_POINT_DOC_VALUES));
      if (shares) return sampledResult(total, shares.filter((_, cell) => quotas[cell] > 0).map(shareResult));
    }
    const cells = samplingCells(query.bbox) ?? [];
    const older = await guarded(() =>
      this.client.search({
        index: this.alias,
        ...boxTotalBody(query),
        aggs: cellCountsAggs(cells),
        filter_path: ['hits.total', 'aggregations.cells.buckets.doc_count'],
      }),
    );
    return this.cellsInIndexOrder(query, cells, cellQuotas(cellTotalsOf(older.aggregations), query.limit), totalOf(older.hits?.total));
  }

  /**
   * Each cell's quota of points by key: first the box's listings below one threshold, then the cells
   * still short below their own thresholds, widened for the cells read short; null: read another way.
   */
  private async sharesBelowThresholds(
    query: MapQuery,
    quotas: number[],
    totals: number[],
    thresholds: number[],
    docValues: readonly string[],
  ): Promise<Buffer[][] | null> {
    const shares: Buffer[][] = quotas.map(() => []);
    const first = boxThreshold(totals, thresholds, query.limit, MAX_SAMPLE_READ);
    let toRead = thresholds;
    if (first > 0) {
      const read = await this.cellReads(query, quotas, boxPointsBody(query, first, MAX_SAMPLE_READ, docValues));
      if (!read) return null;
      toRead = thresholds.map((threshold, cell) => {
        if (threshold < 0 || read[cell].length >= quotas[cell]) {
          shares[cell] = read[cell];
          return -1;
        }
        // Its every key below `first` read: its own threshold when higher, else a wider one.
        return threshold > first ? threshold : widened(first);
      });
      // Every key read and a cell still short: the catalogue changed since it was counted.
      if (first >= KEY_SPAN && toRead.some((threshold) => threshold >= 0)) return null;
    }
    while (toRead.some((threshold) => threshold >= 0)) {
      const read = await this.cellReads(query, quotas, samplePointsBody(query, toRead, MAX_SAMPLE_READ, docValues));
      if (!read) return null;
      const next = toRead.map(() => -1);
      for (const [cell, threshold] of toRead.entries()) {
        if (threshold < 0) continue;
        if (read[cell].length >= quotas[cell]) shares[cell] = read[cell];
        // Every key read and still short: the catalogue changed since it was counted.
        else if (threshold >= KEY_SPAN) return null;
        else next[cell] = widened(threshold);
      }
      toRead = next;
    }
    return shares;
  }

  /**
   * One read of a capped map's points, each cell's up to its quota (map-sample-body.ts cellShares);
   * null when none came back, which a read set for its cells' quotas gets only of hits without the
   * fields asked (left out of the filtered response) or of a catalogue that changed since it was counted.
   */
  private async cellReads(query: MapQuery, quotas: number[], body: SearchBody): Promise<Buffer[][] | null> {
    const response = await guarded(() => this.client.search({ index: this.alias, ...body, filter_path: SAMPLE_POINTS_FILTER }));
    const hits = response.hits?.hits ?? [];
    return hits.length === 0 ? null : cellShares(query.bbox, hits, quotas);
  }

  /**
   * Each cell's share in index order, in one request (map-cells-body.ts: one `top_hits` per cell, its
   * quota in size). An index made before `max_inner_result_window` allowed such shares, or holding a
   * document of an older form, is read cell by cell instead.
   */
  private async cellsInIndexOrder(query: MapQuery, cells: BoundingBox[], quotas: number[], total: number): Promise<MapResult> {
    let shares: Buffer[][] | null = null;
    try {
      const response = await guarded(() =>
        this.client.search({ index: this.alias, ...buildCellPointsBody(query, cells, quotas), filter_path: CELL_POINTS_FILTER }),
      );
      shares = cellPointsOf(response.aggregations, quotas);
    } catch (error) {
      if (statusOf(error) !== 400) throw error;
    }
    if (shares) return sampledResult(total, shares.map(shareResult));
    const reads = await Promise.all(
      cells.flatMap((bbox, i) => (quotas[i] > 0 ? [this.mapFromSource(sourceMapBody(buildMapBody({ ...query, bbox, limit: quotas[i] })))] : [])),
    );
    return sampledResult(total, reads);
  }

  private async mapFromSource(body: SearchBody): Promise<MapResult> {
    const response = await guarded(() => this.client.search<ListingSource>({ index: this.alias, ...body }));
    const points = response.hits.hits.map((hit) => fromMapHit(hit._source as Parameters<typeof fromMapHit>[0]));
    return { total: totalOf(response.hits.total), count: points.length, texts: points.map(mapPointJson) };
  }

  /** Nothing to prepare: the cluster keeps its own caches. */
  async warmUp(): Promise<void> {}

  async clusters(query: ClustersQuery): Promise<ClustersResult> {
    const response = await guarded(() => this.client.search({ index: this.alias, ...buildClustersBody(query) }));
    const buckets = (response.aggregations?.cells as { buckets: CellBucket[] } | undefined)?.buckets ?? [];
    const cells = buckets.map(cellOfBucket);
    // A lone listing whose document is of an older form: its point presented from _source.
    const older = cells.filter((cell) => cell.id !== null && cell.point === null);
    if (older.length) {
      const found = await guarded(() =>
        this.client.mget<ListingSource>({ index: this.alias, ids: older.map((c) => c.id!), _source_includes: MAP_POINT_FIELDS }),
      );
      const points = new Map(
        found.docs.flatMap((doc) =>
          'found' in doc && doc.found && doc._source ? [[doc._id, mapPointJson(fromMapHit(doc._source as Parameters<typeof fromMapHit>[0]))]] : [],
        ),
      );
      for (const cell of older) cell.point = points.get(cell.id!) ?? null;
    }
    return { total: totalOf(response.hits.total), cells };
  }

  async facets(query: FacetsQuery): Promise<FacetsResult> {
    const response = await guarded(() => this.client.search({ index: this.alias, ...buildFacetsBody(query) }));
    return facetsOf(query, response.aggregations);
  }

  async stats(query: StatsQuery): Promise<StatsResult> {
    const response = await guarded(() => this.client.search({ index: this.alias, ...buildStatsBody(query) }));
    const { active } = activeStatsOf(response.aggregations as Parameters<typeof activeStatsOf>[0]);
    const withdrawn: WithdrawnValues[] = [];
    for (let after: string | null = null; ; ) {
      const body = buildWithdrawnValuesBody(query, after);
      const page = await guarded(() => this.client.search<WithdrawnSource>({ index: this.alias, ...body }));
      withdrawn.push(...page.hits.hits.map((hit) => withdrawnValuesOf(hit._source!)));
      if (page.hits.hits.length < WITHDRAWN_PAGE) break;
      after = page.hits.hits[page.hits.hits.length - 1]._source!.id;
    }
    return { active, withdrawn: withdrawnStats(withdrawn) };
  }

  /** The feed's page: presented listings (page-hits.ts), or whole ones when the query asks for them (a follower matching them). */
  async feed(query: FeedQuery): Promise<SearchResult<StoredListing>> {
    const body = buildFeedBody({ ...query, changedUntil: await this.visibleUntil(query.changedUntil) });
    return query.whole ? this.wholePage(body, query.pageSize) : this.page(body, query.pageSize);
  }

  async withdrawn(query: WithdrawnQuery): Promise<SearchResult<StoredListing>> {
    const body = buildWithdrawnBody({ ...query, changedUntil: await this.visibleUntil(query.changedUntil) });
    return query.whole ? this.wholePage(body, query.pageSize) : this.page(body, query.pageSize);
  }

  /**
   * How far the feed and the withdrawn flow may go. A load's writes become visible to searches only
   * at refreshes (and shard by shard), later than their `changed_at`: were the flows to serve up to
   * `until` meanwhile, a cursor could pass a change that becomes visible behind it. So while a lock
   * exists they stop just below its `changes_from`, and go on once its writer has refreshed and
   * released. A dead writer's lock holds them too: only the next writer, taking the lock over,
   * makes its writes visible (a reader may hold read-only credentials, and that writer may yet wake).
   */
  private async visibleUntil(until: number): Promise<number> {
    const lock = await guarded(() => readLock(this.client, this.alias));
    return lock === null ? until : Math.min(until, lock.document.changes_from - 1);
  }

  async acquireWriterLock(request: WriterLockRequest): Promise<WriterLock> {
    // Every write computes block keys (documents, unrefreshed writes): their tables are built before
    // the lease starts, not by the first write, where building them could outlast a short lease.
    prepareBlockKeys();
    const lock = await guarded(() =>
      acquireElasticsearchWriterLock(this.client, this.alias, request, () => this.undoDeadWriter(), { leaseMs: this.options.writerLeaseMs }),
    );
    try {
      // The first writer creates the alias with the mapping file (the API, a reader, never does).
      await guarded(() => ensureIndex(this.client, this.alias, withReplicas(loadIndexDefinition(), this.options.indexReplicas)));
    } catch (error) {
      await lock.release();
      throw error;
    }
    this.heldLock = lock;
    return {
      holder: lock.holder,
      release: async () => {
        try {
          await lock.release();
        } finally {
          this.heldLock = null;
        }
      },
    };
  }

  /**
   * What a writer killed mid-load leaves: a batch perhaps half-written (its journal is replayed, so
   * the batch is whole) and refreshes off (restored).
   */
  private async undoDeadWriter(): Promise<void> {
    const journal = await guarded(() => readJournal(this.client, this.alias));
    if (journal !== null) {
      await this.writer.write(journal);
      await guarded(() => clearJournal(this.client, this.alias));
    }
    await this.restoreRefresh();
  }

  private async ensureStateIndex(): Promise<void> {
    if (this.stateIndexReady) return;
    await guarded(() => ensureStateIndex(this.client, this.alias));
    this.stateIndexReady = true;
  }

  async recordLoad(report: Record<string, unknown>, at: number): Promise<void> {
    await guarded(() => recordElasticsearchLoad(this.client, this.alias, report, at));
  }

  /** Reads only: a missing alias is reported (MissingAliasError), not created. */
  async storeStatus(): Promise<StoreStatus> {
    const indices = await guarded(() => indicesOf(this.client, this.alias));
    if (indices.length === 0) throw new MissingAliasError(this.alias);
    const groupingPending = await this.groupingPending();
    return { backend: this.backend, ...(await guarded(() => elasticsearchStoreStatus(this.client, this.alias, indices, groupingPending))) };
  }

  /** A grouping is owed to the whole catalogue (a first build's, or a dead writer's). */
  async groupingPending(): Promise<boolean> {
    return (await this.readMark(GROUPING_MARK)) !== null;
  }

  async setGroupingPending(pending: boolean): Promise<void> {
    await this.setMark(GROUPING_MARK, pending ? {} : null);
  }

  /** A mark document of the alias's state index, or null when there is none. */
  private async readMark<T extends object>(id: string): Promise<T | null> {
    try {
      const response = await guarded(() => this.client.get<T>({ index: stateIndexOf(this.alias), id }));
      return response.found ? (response._source ?? ({} as T)) : null;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /** Writes a mark with `fields` beside its time, or removes it (null). */
  private async setMark(id: string, fields: object | null): Promise<void> {
    this.fence();
    if (fields !== null) {
      await this.ensureStateIndex();
      await guarded(() => this.client.index({ index: stateIndexOf(this.alias), id, document: { since: Date.now(), ...fields } }));
      return;
    }
    try {
      await guarded(() => this.client.delete({ index: stateIndexOf(this.alias), id }));
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  /** The mapping file's refresh interval back on every index of the alias, then one refresh. */
  private async restoreRefresh(known?: string[]): Promise<void> {
    const indices = known ?? (await guarded(() => indicesOf(this.client, this.alias)));
    const interval = String(loadIndexDefinition().settings.index.refresh_interval ?? '1s');
    this.fence();
    await guarded(() => this.client.indices.putSettings({ index: indices, settings: { index: { refresh_interval: interval } } }));
    await this.refresh();
  }

  /** The detail: the whole document, price series included. */
  async get(id: string): Promise<StoredListing | null> {
    try {
      const response = await guarded(() => this.client.get<ListingSource>({ index: this.alias, id }));
      return response.found && response._source ? fromSource(response._source) : null;
    } catch (error) {
      // A missing document is a 404 whose body says found: false (a missing index is unavailable, above).
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /**
   * The detail from the document's stored texts (read-model.ts presentedOf), one GET without
   * `_source`; a document without current texts (an older form) is read whole and presented.
   */
  async getPresented(id: string, options: { withPricePoints: boolean }): Promise<PresentedDetail | null> {
    try {
      const response = await guarded(() =>
        this.client.get({ index: this.alias, id, _source: false, stored_fields: DETAIL_STORED_FIELDS, filter_path: ['found', 'fields'] }),
      );
      if (!response.found) return null;
      const presented = presentedOf(id, response.fields as Record<string, unknown[]> | undefined, options.withPricePoints);
      if (presented) return presented;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
    return presentedWhole(await this.get(id), options);
  }

  async getMany(ids: string[]): Promise<Map<string, StoredListing>> {
    return this.readWhole(ids, true);
  }

  /** Whole listings by id: with their price series, or (for presenting only) with its digest. */
  private async readWhole(ids: string[], withSeries: boolean): Promise<Map<string, StoredListing>> {
    const found = new Map<string, StoredListing>();
    const source = withSeries ? {} : { _source_excludes: PAGE_SOURCE.excludes };
    for (let i = 0; i < ids.length; i += GET_MANY_CHUNK) {
      const chunk = ids.slice(i, i + GET_MANY_CHUNK);
      const response = await guarded(() => this.client.mget<ListingSource>({ index: this.alias, ids: chunk, ...source }));
      for (const doc of response.docs) {
        if ('found' in doc && doc.found && doc._source) found.set(doc._id, fromSource(doc._source));
      }
    }
    return found;
  }

  /** Every active listing of a dedup block, series included (the grouping stage writes them back). */
  async findBlock(blockKey: string): Promise<StoredListing[]> {
    return (await this.findBlocks([blockKey])).get(blockKey)!;
  }

  /** Several blocks in one search (paged by id), split by each document's block key. */
  async findBlocks(blockKeys: string[]): Promise<Map<string, StoredListing[]>> {
    const listings = await this.searchBlocks(blockKeys, activeInBlocks(blockKeys), WHOLE_HITS);
    const blocks = new Map<string, StoredListing[]>(blockKeys.map((key) => [key, []]));
    for (const { listing, blockKey } of listings) blocks.get(blockKey!)?.push(listing);
    return blocks;
  }

  /**
   * Several blocks' candidates in one search (block-candidates.ts), split by block key. A document
   * without current feature bytes (an index of an older mapping, until `reindex`) is read whole.
   */
  async findBlocksCandidates(blockKeys: string[]): Promise<Map<string, BlockCandidate[]>> {
    if (!(await this.storesFeatureBytes())) {
      const blocks = await this.findBlocks(blockKeys);
      return new Map([...blocks].map(([key, listings]) => [key, listings.map((listing) => wholeCandidate(listing, key))]));
    }
    const hits = await this.searchBlocks(blockKeys, activeInBlocks(blockKeys), CANDIDATE_HITS);
    const blocks = new Map<string, BlockCandidate[]>(blockKeys.map((key) => [key, []]));
    const whole = new Map<string, string>();
    for (const hit of hits) {
      if ('candidate' in hit) blocks.get(hit.candidate.block_key)?.push(hit.candidate);
      else whole.set(hit.whole.id, hit.whole.blockKey);
    }
    if (whole.size === 0) return blocks;
    for (const [id, listing] of await this.getMany([...whole.keys()])) blocks.get(whole.get(id)!)?.push(wholeCandidate(listing, whole.get(id)!));
    // Each block in id order, as the search gives it.
    for (const key of new Set(whole.values())) blocks.get(key)?.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return blocks;
  }

  /**
   * Whether every index behind the alias keeps the feature bytes (mapping 7 on), asked once: an index
   * of an older mapping is read whole until `reindex` and the indexer's restart.
   */
  private storesFeatureBytes(): Promise<boolean> {
    this.featureBytesKept ??= guarded(() => this.client.indices.getMapping({ index: this.alias })).then(
      (mappings) => layoutHolds(commonLayout(Object.values(mappings).map((index) => readModelLayoutOf(index.mappings))), 'candidates'),
      (error: unknown) => {
        this.featureBytesKept = null;
        throw error;
      },
    );
    return this.featureBytesKept;
  }

  /** One search for every block: the withdrawals of a 90-day window are few. */
  async withdrawnInBlocks(blockKeys: string[], leftSince: number): Promise<StoredListing[]> {
    if (blockKeys.length === 0) return [];
    const found = await this.searchBlocks(
      blockKeys,
      {
        filter: [{ terms: { block_key: blockKeys } }, { range: { left_market_at: { gte: leftSince } } }],
        must_not: [{ term: { status: 'active' } }],
      },
      WHOLE_HITS,
    );
    return found.map(({ listing }) => listing);
  }

  /**
   * The hits of `query`, within `blockKeys`, as this store's own writes left them: refreshed first
   * when a listing written since the last refresh is in one of the blocks, read again after a refresh
   * when a listing found was written since (its hit may be its previous version).
   */
  private async searchBlocks<T>(blockKeys: string[], query: estypes.QueryDslBoolQuery, read: HitReader<T>): Promise<T[]> {
    if (this.unrefreshed.reaches(blockKeys)) await this.refresh();
    const found = await this.searchById(query, read);
    if (!this.unrefreshed.holdsAny(found.map(read.idOf))) return found;
    await this.refresh();
    return this.searchById(query, read);
  }

  /** Every hit of a query, paged by id, read by `read`. */
  private async searchById<T>(query: estypes.QueryDslBoolQuery, read: HitReader<T>): Promise<T[]> {
    const found: T[] = [];
    let after: estypes.SortResults | undefined;
    for (;;) {
      const response = await guarded(() =>
        this.client.search<ListingSource>({
          index: this.alias,
          query: { bool: query },
          sort: [{ id: { order: 'asc' } }],
          size: BLOCK_PAGE,
          track_total_hits: false,
          ...read.request,
          ...(after ? { search_after: after } : {}),
        }),
      );
      const hits = response.hits.hits;
      for (const hit of hits) found.push(read.hit(hit));
      if (hits.length < BLOCK_PAGE) return found;
      after = hits[hits.length - 1].sort;
    }
  }

  /**
   * The distinct block keys of the active listings after `after`, in order (a composite
   * aggregation pages through them exactly): with it a first build groups once at its end.
   */
  async blockKeysAfter(after: string | null, limit: number): Promise<string[]> {
    await this.refreshIfWritten();
    const response = await guarded(() =>
      this.client.search({
        index: this.alias,
        size: 0,
        track_total_hits: false,
        query: { bool: { filter: [{ term: { status: 'active' } }, { exists: { field: 'block_key' } }] } },
        aggs: {
          keys: {
            composite: {
              size: limit,
              sources: [{ key: { terms: { field: 'block_key', order: 'asc' } } }],
              ...(after !== null ? { after: { key: after } } : {}),
            },
          },
        },
      }),
    );
    const buckets = (response.aggregations?.keys as estypes.AggregationsCompositeAggregate | undefined)?.buckets ?? [];
    return (buckets as unknown as { key: { key: string } }[]).map((bucket) => bucket.key.key);
  }

  async upsertMany(listings: StoredListing[]): Promise<WriteFailure[]> {
    // A batch is journaled first (write-journal.ts): written whole, or replayed by the next writer.
    return this.write(listings, { journaled: listings.length > 1 });
  }

  private async write(listings: StoredListing[], { journaled }: { journaled: boolean }): Promise<WriteFailure[]> {
    if (listings.length === 0) return [];
    this.unrefreshed.wrote(listings);
    this.fence();
    let journal: JournalVersion | null = null;
    if (journaled) {
      await this.ensureStateIndex();
      journal = await guarded(() => writeJournal(this.client, this.alias, listings));
      this.fence();
    }
    const report = await this.writer.write(listings);
    this.fence();
    if (journal) await guarded(() => clearJournal(this.client, this.alias, journal));
    this.lastWrite = report;
    if (this.options.refreshOnWrite) await this.refresh();
    for (const failure of report.failures) await this.options.onDocumentFailure?.(failure);
    // Refused documents go back to the caller (the indexer's rejects file); nothing is dropped.
    return report.failures.map((f) => ({ id: f.id, reason: `elasticsearch refused the document (${f.status} ${f.type}): ${f.reason}` }));
  }

  /** The flows' order and filters, read whole (the flows' own pages hold presented listings only). */
  async catalogue(which: 'active' | 'inactive', after: SortPosition | null, pageSize: number): Promise<SearchResult<StoredListing>> {
    return catalogueThroughFlows({ feed: (q) => this.wholePages.feed(q), withdrawn: (q) => this.wholePages.withdrawn(q) }, which, after, pageSize);
  }

  /** Feed and withdrawn flow pages of whole listings (price series included), for the indexer. */
  private readonly wholePages = {
    feed: (query: FeedQuery) => this.wholePage(buildFeedBody(query), query.pageSize),
    withdrawn: (query: WithdrawnQuery) => this.wholePage(buildWithdrawnBody(query), query.pageSize),
  };

  private async wholePage(body: SearchBody, pageSize: number): Promise<SearchResult<StoredListing>> {
    const { stored_fields: _, docvalue_fields: __, ...rest } = body;
    const response = await guarded(() => this.client.search<ListingSource>({ index: this.alias, ...rest, _source: true }));
    const page = response.hits.hits.slice(0, pageSize);
    return { items: page.map((hit) => fromSource(hit._source!)), hasMore: response.hits.hits.length > pageSize, last: positionOf(page.at(-1)) };
  }

  /** No content-only data to spare here: a grouping's rewrite is a write of the whole document. */
  async upsertGroupFields(listings: StoredListing[]): Promise<WriteFailure[]> {
    return this.upsertMany(listings);
  }

  async maxChangeSeq(): Promise<number> {
    return this.maxOf('change_seq');
  }

  async maxChangedAt(): Promise<number> {
    return this.maxOf('changed_at');
  }

  /** The highest value of a numeric field over the alias (0 when empty), after this store's own writes. */
  private async maxOf(field: 'change_seq' | 'changed_at'): Promise<number> {
    await this.refreshIfWritten();
    const response = await guarded(() =>
      this.client.search({ index: this.alias, size: 0, track_total_hits: false, aggs: { [`max_${field}`]: { max: { field } } } }),
    );
    const value = (response.aggregations?.[`max_${field}`] as estypes.AggregationsMaxAggregate | undefined)?.value;
    return typeof value === 'number' ? value : 0;
  }

  /**
   * A snapshot's scope, after this store's own writes. Asked first by a snapshot load, so an index
   * that cannot keep the counts is refused (StoreBehindError) before the load writes anything.
   */
  async activeInScope(scope: SnapshotScope): Promise<Map<string, Absence>> {
    await assertKeepsAbsences(this.client, this.alias);
    await this.refreshIfWritten();
    return readActiveInScope(this.client, this.alias, scope);
  }

  /**
   * The whole documents written again with their counts, at their change_seq (no change for the
   * flows): an update would rebuild each from `_source`, which lacks the texts the API serves.
   */
  async recordAbsences(counts: ReadonlyMap<string, Absence>): Promise<void> {
    if (counts.size === 0) return;
    await assertKeepsAbsences(this.client, this.alias);
    const ids = [...counts.keys()];
    // A batch at a time, as a load writes: each batch is journaled whole before its bulk request.
    for (let i = 0; i < ids.length; i += GET_MANY_CHUNK) {
      const listings = [...(await this.getMany(ids.slice(i, i + GET_MANY_CHUNK))).values()].filter((listing) => listing.status === 'active');
      const written = listings.map(({ absent_loads: _, absent_at: __, ...listing }) => {
        const { loads, at } = counts.get(listing.id)!;
        return loads > 0 ? { ...listing, absent_loads: loads, absent_at: at } : listing;
      });
      const refused = await this.upsertMany(written);
      if (refused.length > 0)
        throw new Error(`the store refused the absence counts of ${refused.length} listing(s), e.g. ${refused[0].id}: ${refused[0].reason}`);
    }
  }

  /** The listings held; none while the alias does not exist yet (the first writer creates it). */
  async count(): Promise<number> {
    await this.refreshIfWritten();
    try {
      return (await this.client.count({ index: this.alias })).count;
    } catch (error) {
      if (statusOf(error) === 404 && errorTypeOf(error) === 'index_not_found_exception') return 0;
      return guarded(() => Promise.reject(error));
    }
  }

  /**
   * Answers while searches can be answered: a yellow cluster (a replica missing, e.g. a node lost)
   * serves every search and says so in `detail`; red (a primary missing) is down.
   */
  async health(): Promise<StoreHealth> {
    try {
      const [{ count }, cluster] = await Promise.all([
        this.client.count({ index: this.alias }),
        this.client.cluster.health({ index: this.alias, timeout: '0s' }),
      ]);
      if (cluster.status === 'green') return { ok: true, backend: this.backend, listings: count };
      const detail = `cluster ${cluster.status}: ${cluster.unassigned_shards} shard copies unassigned, ${cluster.number_of_data_nodes} data node(s)`;
      return { ok: cluster.status !== 'red', backend: this.backend, listings: count, detail };
    } catch (error) {
      return { ok: false, backend: this.backend, detail: describe(error) };
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * Runs a big load with periodic refreshes off (each refresh writes a new segment; during a load of
   * millions of documents they are wasted work), then restores the interval of the mapping file and
   * refreshes once. Searches keep answering meanwhile, from the state before the load.
   */
  async duringBulkLoad<T>(load: () => Promise<T>): Promise<T> {
    const indices = await guarded(() => indicesOf(this.client, this.alias));
    if (indices.length === 0) throw new MissingAliasError(this.alias);
    this.fence();
    await guarded(() => this.client.indices.putSettings({ index: indices, settings: { index: { refresh_interval: '-1' } } }));
    try {
      return await load();
    } finally {
      await this.restoreRefresh(indices);
      if (this.firstBuildWritten) await this.mergeFirstBuild(indices);
    }
  }

  /**
   * A first build leaves a dozen segments of the bulk requests and the operations' recovery copies
   * (`_recovery_source`): merged, the index is less than half the size on disk, and a daily load's
   * merges, which otherwise rewrote the big segments (20 s of the node's CPU per 20 000 records),
   * touch its own small ones (docs/benchmarks.md, "The daily load"). Segments stay under the merge
   * policy's largest, so that later updates can still merge them away.
   */
  private async mergeFirstBuild(indices: string[]): Promise<void> {
    this.firstBuildWritten = false;
    const stats = await guarded(() => this.client.indices.stats({ index: indices, metric: 'store' }));
    const settings = await guarded(() => this.client.indices.getSettings({ index: indices }));
    for (const index of indices) {
      const bytes = stats.indices?.[index]?.primaries?.store?.size_in_bytes ?? 0;
      const shards = Number(settings[index]?.settings?.index?.number_of_shards ?? 1);
      const segments = Math.max(1, Math.ceil(bytes / shards / MERGED_SEGMENT_BYTES));
      this.fence();
      const started = await guarded(() => this.client.indices.forcemerge({ index, max_num_segments: segments, wait_for_completion: false }));
      if (started.task) await guarded(() => awaitNodeTask(this.client, started.task!, { deadlineMs: FORCE_MERGE_TIMEOUT_MS }));
    }
  }

  async refresh(): Promise<void> {
    await guarded(() => this.client.indices.refresh({ index: this.alias }));
    this.unrefreshed.clear();
  }

  private async refreshIfWritten(): Promise<void> {
    if (this.unrefreshed.any) await this.refresh();
  }

  /** One keyset page: pageSize + 1 hits asked, the extra one only says there is more. */
  private async page(body: SearchBody, pageSize: number): Promise<SearchResult<StoredListing>> {
    const response = await guarded(() => this.client.search({ index: this.alias, ...body, filter_path: PAGE_RESPONSE_FILTER }));
    const hits = response.hits?.hits ?? [];
    const page = hits.slice(0, pageSize);
    return {
      items: await listingsOfHits(page, (ids) => this.readWhole(ids, false)),
      hasMore: hits.length > pageSize,
      last: positionOf(page.at(-1)),
    };
  }
}

/** The sort values Elasticsearch reports are the position search_after expects back. */
function positionOf(hit: estypes.SearchHit | undefined): SortPosition | null {
  return hit?.sort ? (hit.sort as SortPosition) : null;
}

/** A load into an alias that does not exist: writing would create an index without the mapping. */
export class MissingAliasError extends Error {
  constructor(alias: string) {
    super(
      `the alias ${alias} does not exist on the cluster: create it with \`npx tsx src/adapters/elasticsearch/cli.ts ensure\` (with the indexer's credentials) before loading`,
    );
    this.name = 'MissingAliasError';
  }
}

function totalOf(total: estypes.SearchTotalHits | number | undefined): number {
  if (total === undefined) return 0;
  return typeof total === 'number' ? total : total.value;
}

function describe(error: unknown): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return status ? `${status}: ${message}` : message;
}
