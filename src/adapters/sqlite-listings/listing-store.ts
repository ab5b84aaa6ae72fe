/**
 * Over 300 lines on purpose: one class wiring both listing ports to the modules beside it, one short method each.
 * Embedded ListingStore on SQLite (better-sqlite3): typed columns + partial indexes for filters and
 * sorts, FTS5 for full text (plan chosen per query), R*Tree for map boxes, keyset pagination.
 *
 * This class wires the modules and runs what they build: the connection (schema/connection.ts), what
 * opening does to the file (schema/migrations.ts), the statements of each read (read/search-sql.ts, map/box-sql.ts,
 * read/flows-sql.ts, read/by-id-sql.ts: pure functions of the query and the plan chosen here), the writes
 * (write/listing-writes.ts), what reindex writes and builds (schema/backfills.ts, schema/maintenance.ts) and the state re-read
 * from the file now and then (state/store-state.ts, text/planner.ts).
 */
import { recordSqliteLoad, sqliteStoreStatus } from './state/status.js';
import type { StoreStatus } from '../../core/ports/store-status.js';
import type Database from 'better-sqlite3';
import type { StoredListing } from '../../core/model/stored.js';
import type { FeedQuery, MapQuery, SearchQuery, SearchResult, SortPosition, WithdrawnQuery } from '../../core/query/query.js';
import type { ListingReader, MapResult, StoreHealth } from '../../core/ports/listing-reader.js';
import {
  catalogueThroughFlows,
  type BlockCandidate,
  type IndexCapabilities,
  type ListingIndex,
  type SnapshotScope,
  type Absence,
  type WriteFailure,
} from '../../core/ports/listing-index.js';
import { activeInScope, writeAbsences } from './write/absences.js';
import { currentIdentity, type WriterLock } from '../../core/ports/writer-lock.js';
import { StatementCache } from '../sqlite-shared/statements.js';
import { openConnection } from './schema/connection.js';
import { openSchema } from './schema/migrations.js';
import { LISTINGS_SCHEMA } from './schema/tables.js';
import { analyzeStore, rebuildFullText, recreateChangedIndexes } from './schema/maintenance.js';
import { compactDocuments, fillDedupFeatures, rewritePublicJson } from './schema/backfills.js';
import { acquireSqliteWriterLock } from './write/writer-lock.js';
import { SORT_SPECS } from './read/sorts.js';
import type { TextPlan } from './text/plan.js';
import { TextSetCache } from './text/document-sets.js';
import { TextPlanner } from './text/planner.js';
import { MapPointsCache } from './map/points-in-memory.js';
import { MapReader } from './map/reader.js';
import { spreadMap } from './map/spread.js';
import { ListingReads } from './read/listing-reads.js';
import { decodeGroupRow, GROUP_WORKER_READER_MODULE } from './group-worker-reader.js';
import { ListingWrites } from './write/listing-writes.js';
import { StoreState } from './state/store-state.js';
import { buildSearchSql, searchRowsWanted } from './read/search-sql.js';
import { buildFeedSql, buildWithdrawnSql, type ChangePageSql } from './read/flows-sql.js';
import { indexedItems, pageListings, pageOf, type IndexedFeedRow, type IndexedPageRow } from './read/page-results.js';
import { fromRow, type ListingRow, type PageRow } from './rows/listing-row.js';
import { presentedWhole, withPriceSeries, type PresentedDetail } from '../../core/model/present.js';
import { PRESENTED_DETAIL_SQL } from './read/by-id-sql.js';
import type { ClustersQuery, ClustersResult, StatsQuery, StatsResult, WithdrawnValues } from '../../core/query/aggregates.js';
import { ClustersReader } from './map/clusters-reader.js';
import { MAP_ANSWERS, MapAnswers } from './map/answers.js';
import { storeStamp } from './state/stamp.js';
import type { FacetsQuery, FacetsResult } from '../../core/query/facets.js';
import { facetCounts } from '../../core/query/facets.js';
import { registerGeoFunctions } from './read/geo-sql.js';
import { buildAreaScanSql } from './read/area-scan-sql.js';
import { buildDistanceSearchSql } from './read/distance-sql.js';
import { distanceMeters, type LatLon } from '../../core/query/geo.js';
import { buildFacetSql, buildFacetTotalSql, type ChooseText } from './read/facets-sql.js';
import { buildActiveStatsSql, buildWithdrawnStatsSql, statsFromRows } from './read/stats-sql.js';

export interface SqliteListingStoreOptions {
  /** Page cache of SQLite in MiB. */
  cacheMiB?: number;
  /**
   * Forces one full-text plan instead of choosing per query (text/plan.ts). Only the benchmarks set
   * it, to print both plans' figures beside the chosen one (npm run bench, "full text" table).
   */
  textPlan?: TextPlan;
  /** Rows per transaction of a bulk load (write/bulk-load.ts BULK_COMMIT_ROWS; tests use small ones). */
  bulkCommitRows?: number;
  /** Rows per transaction of a load into a store that holds listings (write/commit-groups.ts LIVE_COMMIT_ROWS; tests use small ones). */
  liveCommitRows?: number;
  /**
   * Index-first full text checks rows against in-memory document sets (text/document-sets.ts); false asks
   * FTS5 for each row instead (the benchmarks print both).
   */
  textSets?: boolean;
  /**
   * The default map's exact total counted over an in-memory copy of ix_map's coordinates
   * (map/points-in-memory.ts); false counts in SQL every time (the tests compare both).
   */
  mapCountsInMemory?: boolean;
  /** A repeated map query answered with the answer kept while the store is unchanged (map/answers.ts); false reads it every time. */
  mapAnswersKept?: boolean;
  /**
   * Bytes of the file read through a memory map instead of read() calls (SQLite `mmap_size`, in MiB;
   * default 0). The API sets it (SQLITE_MMAP_MIB): feed pages read faster.
   */
  mmapMiB?: number;
}

/** meta key of ListingIndex.groupingPending. */
const GROUPING_PENDING = 'grouping_pending';
/**
 * Entries of the sort's index a search in an area tests before it reads the area's every listing
 * instead: an area holding one listing in a hundred finds a page of 25 among them.
 */
const AREA_SCAN_CAP = 5000;
/** A search by distance asks first within this many kilometres of its centre, then in rings this many times wider. */
const FIRST_RING_KM = 0.5;
const RING_WIDENING = 4;
/** Beyond this radius (about the Earth's half-circumference, in km) a ring holds every listing: the last try has none. */
const LAST_RING_KM = 20_016;

export class SqliteListingStore implements ListingReader, ListingIndex {
  readonly backend = 'sqlite';
  /** Both: the dedup features are stored (dedup_features), and the file can be read by another thread. */
  readonly capabilities: IndexCapabilities = {
    storedCandidates: { findBlockCandidates: (blockKey) => this.findBlockCandidates(blockKey) },
    groupWorker: {
      readerSource: () => ({ module: GROUP_WORKER_READER_MODULE, file: this.fileForReaders() }),
      // The worker's rows are this adapter's, encoded and decoded by group-worker-reader.ts.
      upsertGroupRows: (count, rowAt) => this.upsertGroupRows(count, (index) => decodeGroupRow(rowAt(index))),
    },
    // Its own regrouping reads stored features and rewrites only group fields: nothing to keep aside.
    firstBuildAside: null,
  };
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private readonly state: StoreState;
  private readonly textPlanner: TextPlanner;
  private readonly mapReader: MapReader;
  private readonly clustersReader: ClustersReader;
  private readonly mapAnswers: MapAnswers;
  private readonly reads: ListingReads;
  private readonly writes: ListingWrites;

  constructor(
    readonly file: string,
    options: SqliteListingStoreOptions = {},
  ) {
    this.db = openConnection(file, options);
    openSchema(this.db);
    registerGeoFunctions(this.db);
    this.statements = new StatementCache(this.db);
    this.state = new StoreState(this.statements);
    this.reads = new ListingReads(this.statements);
    this.textPlanner = new TextPlanner(this.statements, new TextSetCache(this.db), options.textPlan, options.textSets !== false);
    this.mapReader = new MapReader(this.statements, this.state, new MapPointsCache(this.db), options.mapCountsInMemory !== false);
    this.clustersReader = new ClustersReader(this.statements, this.mapReader);
    this.mapAnswers = new MapAnswers(storeStamp(this.db), options.mapAnswersKept === false ? { entries: 0, bytes: 0 } : MAP_ANSWERS);
    this.writes = new ListingWrites(this.db, options.bulkCommitRows, options.liveCommitRows);
  }

  /**
   * The underlying handle, for this adapter's own tests and the benchmarks' raw-statement baseline
   * (scripts/bench): neither port exposes it.
   */
  get database(): Database.Database {
    return this.db;
  }

  async search(query: SearchQuery): Promise<SearchResult<StoredListing>> {
    if (query.distanceFrom) return this.searchByDistance(query, query.distanceFrom);
    const presented = this.state.publicJsonCurrent();
    const { sql, params } = buildSearchSql(query, { presented, text: this.textPlanner.choose(query.filter, searchRowsWanted(query)) });
    if (presented) {
      const rows = this.areaAlongTheSort(query) ?? (this.statements.get(sql).all(...params) as IndexedPageRow[]);
      return pageOf(
        rows,
        query.pageSize,
        (page) => indexedItems(this.reads, page),
        (row) => [row.sort_key, row.id],
      );
    }
    const sort = SORT_SPECS[query.sort];
    const rows = this.statements.get(sql).all(...params) as ListingRow[];
    return pageOf(
      rows,
      query.pageSize,
      (page) => page.map(fromRow),
      (row) => [sort.keyOf(row), row.id],
    );
  }

  /** The page of a search in an area when the sort's first entries hold it whole (read/area-scan-sql.ts), else null. */
  private areaAlongTheSort(query: SearchQuery): IndexedPageRow[] | null {
    const statement = buildAreaScanSql(query, AREA_SCAN_CAP);
    if (!statement) return null;
    const rows = this.statements.get(statement.sql).all(...statement.params) as IndexedPageRow[];
    return rows.length > query.pageSize ? rows : null;
  }

  /**
   * Nearest first: asked within rings of FIRST_RING_KM, then RING_WIDENING times wider, until a ring
   * holds the page and the row after it (then no listing outside the ring can precede them), or holds
   * the whole area; the last try has no ring.
   */
  private searchByDistance(query: SearchQuery, centre: LatLon): SearchResult<StoredListing> {
    const text = this.textPlanner.choose(query.filter, searchRowsWanted(query));
    const from = query.after ? Number(query.after[0]) / 1000 : 0;
    const area = query.filter.area;
    const last = area?.kind === 'circle' ? distanceMeters(centre, area.centre) / 1000 + area.radiusKm : LAST_RING_KM;
    let rows: (ListingRow & { distance: number })[] = [];
    for (let ringKm = from + FIRST_RING_KM; ; ringKm = from + (ringKm - from) * RING_WIDENING) {
      const { sql, params } = buildDistanceSearchSql(query, centre, text, ringKm < last ? ringKm : undefined);
      rows = this.statements.get(sql).all(...params) as (ListingRow & { distance: number })[];
      if (ringKm >= last || rows.length > query.pageSize) break;
    }
    return pageOf(
      rows,
      query.pageSize,
      (page) => page.map(fromRow),
      (row) => [row.distance, row.id],
    );
  }

  async map(query: MapQuery): Promise<MapResult> {
    return this.mapAnswers.answer(query, () => spreadMap(this.mapReader, query));
  }

  /**
   * Reads the in-memory copy of the default map's points now (map/points-in-memory.ts) instead of at the first
   * map request, and resolves once it is read (ListingReader.warmUp). The API calls it at start-up.
   */
  async warmUp(): Promise<void> {
    return this.mapReader.readMapPoints();
  }

  async feed(query: FeedQuery): Promise<SearchResult<StoredListing>> {
    const presented = this.state.publicJsonCurrent();
    return this.changePage(buildFeedSql(query, presented), query.pageSize, presented);
  }

  async withdrawn(query: WithdrawnQuery): Promise<SearchResult<StoredListing>> {
    const presented = this.state.publicJsonCurrent();
    return this.changePage(buildWithdrawnSql(query, presented), query.pageSize, presented);
  }

  /** A feed or withdrawn page (read/flows-sql.ts), positioned by [changed_at, change_seq]. */
  private changePage(statement: ChangePageSql, pageSize: number, presented: boolean): SearchResult<StoredListing> {
    const position = (row: { changed_at: number; change_seq: number }): SortPosition => [row.changed_at, row.change_seq];
    const run = this.statements.get(statement.sql);
    if (statement.read === 'indexed') {
      const rows = run.all(...statement.params) as IndexedFeedRow[];
      return pageOf(rows, pageSize, (page) => indexedItems(this.reads, page), position);
    }
    const rows = run.all(...statement.params) as (ListingRow | PageRow)[];
    return pageOf(rows, pageSize, (page) => pageListings(this.statements, page, presented), position);
  }

  async catalogue(which: 'active' | 'inactive', after: SortPosition | null, pageSize: number): Promise<SearchResult<StoredListing>> {
    return catalogueThroughFlows(this, which, after, pageSize);
  }

  async clusters(query: ClustersQuery): Promise<ClustersResult> {
    return this.clustersReader.clusters(query);
  }

  async facets(query: FacetsQuery): Promise<FacetsResult> {
    const chooseText: ChooseText = (filter) => this.textPlanner.choose(filter, Number.POSITIVE_INFINITY);
    const total = buildFacetTotalSql(query, chooseText);
    const result: FacetsResult = { total: (this.statements.get(total.sql).get(...total.params) as { n: number }).n, facets: {} };
    for (const name of query.facets) {
      const { sql, params } = buildFacetSql(query, name, chooseText);
      const rows = this.statements.get(sql).all(...params) as { k: string | number | null; n: number }[];
      result.facets[name] = facetCounts(
        name,
        query.filter,
        rows.map((row) => ({ key: row.k, count: row.n })),
      );
    }
    return result;
  }

  async stats(query: StatsQuery): Promise<StatsResult> {
    const [active, withdrawn] = [buildActiveStatsSql(query), buildWithdrawnStatsSql(query)];
    return statsFromRows(
      this.statements
        .get(active.sql)
        .raw()
        .all(...active.params) as (number | null)[][],
      this.statements.get(withdrawn.sql).all(...withdrawn.params) as WithdrawnValues[],
    );
  }

  async get(id: string): Promise<StoredListing | null> {
    return this.reads.get(id);
  }

  /** The stored Annonce text while the texts are current (the series spliced in when asked), else the listing presented whole. */
  async getPresented(id: string, options: { withPricePoints: boolean }): Promise<PresentedDetail | null> {
    if (this.state.publicJsonCurrent()) {
      const row = this.statements.get(PRESENTED_DETAIL_SQL).get(id) as PresentedDetailRow | undefined;
      if (!row) return null;
      const stored = row.public_json;
      const annonce = stored === null || !options.withPricePoints ? stored : withPriceSeries(stored, row.points ? JSON.parse(row.points) : []);
      if (annonce !== null) return { id: row.id, status: row.status, catalogue_entered_at: row.entered_at, annonce };
    }
    return presentedWhole(this.reads.get(id), options);
  }

  async getMany(ids: string[]): Promise<Map<string, StoredListing>> {
    return this.reads.getMany(ids);
  }

  async findBlock(blockKey: string): Promise<StoredListing[]> {
    return this.reads.findBlock(blockKey);
  }

  /** One read per block: SQLite reads a block from ix_block without a round trip to save. */
  async findBlocks(blockKeys: string[]): Promise<Map<string, StoredListing[]>> {
    return new Map(blockKeys.map((key) => [key, this.reads.findBlock(key)]));
  }

  async withdrawnInBlocks(blockKeys: string[], leftSince: number): Promise<StoredListing[]> {
    return blockKeys.flatMap((key) => this.reads.withdrawnInBlock(key, leftSince));
  }

  async blockKeysAfter(after: string | null, limit: number): Promise<string[]> {
    return this.reads.blockKeysAfter(after, limit);
  }

  async groupingPending(): Promise<boolean> {
    return this.statements.get('SELECT 1 FROM meta WHERE key = ?').get(GROUPING_PENDING) !== undefined;
  }

  /** In the load's write transaction: in bulk mode the mark commits with the first rows, and its removal with the last group fields. */
  async setGroupingPending(pending: boolean): Promise<void> {
    this.writes.inWriteTransaction(() => {
      if (pending) this.statements.get('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(GROUPING_PENDING, new Date().toISOString());
      else this.statements.get('DELETE FROM meta WHERE key = ?').run(GROUPING_PENDING);
    }, 0);
  }

  async recordLoad(report: Record<string, unknown>, at: number): Promise<void> {
    this.writes.inWriteTransaction(() => recordSqliteLoad(this.statements, report, at), 0);
  }

  async storeStatus(): Promise<StoreStatus> {
    return { backend: this.backend, ...sqliteStoreStatus(this.statements, this.file, await this.groupingPending()) };
  }

  async findBlockCandidates(blockKey: string): Promise<BlockCandidate[]> {
    return this.reads.findBlockCandidates(blockKey);
  }

  async upsertMany(listings: StoredListing[]): Promise<WriteFailure[]> {
    this.writes.writeListings(listings, true);
    return [];
  }

  /** As upsertMany, but the dedup features (own values only, dedup-features.ts) stay as stored: they cannot have changed. */
  async upsertGroupFields(listings: StoredListing[]): Promise<WriteFailure[]> {
    this.writes.writeListings(listings, false);
    return [];
  }

  /**
   * upsertGroupFields for rows already encoded (toRow) in another thread: the grouping of a first
   * build encodes its rewrites in its worker thread (indexer/dedup/group-worker.ts). `rowAt` is asked
   * for each row just before its write, so that a row decoded then is garbage by the next one.
   */
  async upsertGroupRows(count: number, rowAt: (index: number) => ListingRow): Promise<WriteFailure[]> {
    this.writes.writeRows(count, rowAt);
    return [];
  }

  /** The file, after committing what a bulk load has written so far (outside one every write is committed already). */
  async acquireWriterLock(): Promise<WriterLock> {
    if (this.file === ':memory:' || this.file === '') return { holder: currentIdentity(), release: async () => {} };
    return acquireSqliteWriterLock(this.file);
  }

  fileForReaders(): string {
    this.writes.commitNow();
    return this.file;
  }

  /**
   * A load (indexer/load.ts runs itself inside this): on an EMPTY store, bulk mode (write/bulk-load.ts:
   * indexes, full text and boxes built once at the end); on a store that holds listings, the load
   * as it is, since the API reads the same file meanwhile.
   */
  async duringBulkLoad<T>(load: () => Promise<T>): Promise<T> {
    return this.writes.duringBulkLoad(load);
  }

  async maxChangeSeq(): Promise<number> {
    const row = this.statements.get('SELECT max(change_seq) AS seq FROM listings').get() as { seq: number | null };
    return row.seq ?? 0;
  }

  /** The last entries of the feed's and the withdrawn flow's indexes (ix_feed, ix_withdrawn): two rows read. */
  async maxChangedAt(): Promise<number> {
    const row = this.statements
      .get(
        'SELECT max(ifnull((SELECT max(changed_at) FROM listings WHERE active = 1), 0), ifnull((SELECT max(changed_at) FROM listings WHERE active = 0), 0)) AS at',
      )
      .get() as { at: number };
    return row.at;
  }

  async activeInScope(scope: SnapshotScope): Promise<Map<string, Absence>> {
    return activeInScope(this.statements, scope);
  }

  /** One transaction (or the bulk load's): a column of each row, nothing the API serves changes. */
  async recordAbsences(counts: ReadonlyMap<string, Absence>): Promise<void> {
    this.writes.inWriteTransaction(() => writeAbsences(this.statements, counts), counts.size);
  }

  /** Kept by triggers (schema/migrations.ts ensureListingCount): one row read, whatever the page cache holds. */
  async count(): Promise<number> {
    return (this.statements.get('SELECT n FROM listing_count').get() as { n: number }).n;
  }

  async health(): Promise<StoreHealth> {
    try {
      const n = await this.count();
      return { ok: true, backend: this.backend, listings: n };
    } catch (error) {
      return { ok: false, backend: this.backend, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }

  /** Run ANALYZE so the planner knows the indexes' selectivity (after big loads). */
  analyze(): void {
    analyzeStore(this.db);
  }

  /**
   * `npm run indexer -- reindex` on SQLite: write every row's Annonce text again when they are not
   * current, store the dedup features rows lack (schema/backfills.ts), build again the indexes whose
   * definition changed (schema/maintenance.ts), rebuild the full-text index from the table, then ANALYZE.
   */
  rebuildIndexes(): void {
    if (!this.state.publicJsonCurrent()) {
      rewritePublicJson(this.db);
      this.state.forgetPublicJson();
    } else compactDocuments(this.db);
    fillDedupFeatures(this.db, this.writes);
    recreateChangedIndexes(this.db);
    // Builds the indexes that the store lacked when opened (schema/migrations.ts schemaForOpen).
    this.db.exec(LISTINGS_SCHEMA);
    this.state.forgetIndexes();
    rebuildFullText(this.db);
    this.db.exec('REINDEX');
    analyzeStore(this.db);
  }
}

export type { SortPosition };

/** A row of PRESENTED_DETAIL_SQL. */
type PresentedDetailRow = Pick<ListingRow, 'id' | 'entered_at' | 'points'> & { status: StoredListing['status']; public_json: Buffer | null };
