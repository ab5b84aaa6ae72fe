/**
 * Embedded ListingStore on SQLite (better-sqlite3): typed columns + partial indexes for filters and
 * sorts, FTS5 for full text (plan chosen per query), R*Tree for map boxes, keyset pagination.
 * WAL mode lets the indexer write from another process while the API reads.
 */
import Database from 'better-sqlite3';
import type { MapPointListing, StoredListing } from '../../core/model/stored.js';
import type {
  BoundingBox, FeedQuery, ListingFilter, MapQuery, SearchQuery, SearchResult, SortPosition, WithdrawnQuery,
} from '../../core/query/query.js';
import type { BlockCandidate, ListingStore, MapResult, StoreHealth, WriteFailure } from '../../core/ports/listing-store.js';
import { FEATURE_COLUMNS, featureValuesOf } from '../../core/dedup/features.js';
import {
  addOwnSurfaceColumn, addPresentedColumns, ensureListingCount, LISTINGS_SCHEMA, markPresentedTextsOfEmptyStore, moveTextsToTheirTable,
  rebuildFullText, schemaForOpen, PUBLIC_JSON_META, recreateChangedIndexes, SCHEMA_VERSION, analyzeStore,
} from './schema.js';
import { filterConditions, ftsMatchExpression, scopeConditions, siteConditions, transactionLeads, type SqlPart } from './filter-sql.js';
import { acquireSqliteWriterLock } from './writer-lock.js';
import { currentIdentity, type WriterLock } from '../../core/ports/writer-lock.js';
import { SORT_SPECS } from './sorts.js';
import { chooseTextPlan, type TextPlan } from './text-plan.js';
import { fromPageRow, fromRow, IndexedPageListing, MapTextListing, toRow, type ListingRow, type PageRow } from './rows.js';
import { PUBLIC_JSON_VERSION } from '../../core/model/present.js';
import { StatementCache } from '../sqlite-shared/statements.js';
import { BulkLoad, recoverBulkLoad } from './bulk-load.js';
import { TextSetCache } from './text-sets.js';
import { MapPointsCache } from './map-counts.js';
import { ListingReads, PAGE_COLUMNS, PAGE_ROW_COLUMNS, TEXT_COLUMNS, textOf } from './listing-reads.js';
import type { ClustersQuery, ClustersResult, StatsQuery, StatsResult, WithdrawnValues } from '../../core/query/aggregates.js';
import { buildClustersSql, clusterCells, type ClusterRow } from './clusters-sql.js';
import { buildActiveStatsSql, buildWithdrawnStatsSql, statsFromRows } from './stats-sql.js';

type Param = string | number;

/** The columns of a `listings` row (narrow: the texts are in listing_texts, TEXT_COLUMNS). */
const ROW_COLUMNS = [
  'id', 'source', 'status', 'active', 'vis', 'entered_at', 'updated_at', 'published_at', 'changed_at', 'change_seq',
  'left_market_at', 'transaction_type', 'type_norm', 'city_norm', 'postal_code', 'department', 'region_norm', 'price',
  'price_per_m2', 'surface', 'rooms', 'bedrooms', 'year_built', 'dpe', 'ges', 'lat', 'lon', 'dedup_key', 'sites_ahead',
  'block_key', 'own_surface', 'content_hash', 'points', 'map_json',
] as const;

const DOC_FREQUENCY_TTL_MS = 60_000;

/**
 * The same with the precomputed Annonce text instead of `doc` (fromPageRow), while that text is
 * current. Read as a BLOB: better-sqlite3 then copies the UTF-8 bytes into a Buffer instead of
 * decoding them into a JS string (measured: a page of 26 rows 0.18 ms instead of 0.38 ms), and the
 * bytes go to the socket as they are.
 */
const PAGE_COLUMNS_PRESENTED = PAGE_COLUMNS.replace(`${textOf('doc')} AS doc`, `${textOf('public_json')} AS public_json`);
/** A row of a search page while the texts are current: its index entry's rowid, id and sort key, and its text. */
interface IndexedPageRow { rowid: number; id: string; sort_key: number; public_json: Buffer | null }
/** The same for a feed page: the change position instead of a sort key (ix_feed's entries). */
interface IndexedFeedRow { rowid: number; id: string; changed_at: number; change_seq: number; public_json: Buffer | null }

/** A page out of `rows` (one row more was asked, to learn has_more): its listings, and the position of its last row. */
function pageOf<R>(rows: R[], pageSize: number, items: (page: R[]) => StoredListing[], positionOf: (row: R) => SortPosition): SearchResult<StoredListing> {
  const page = rows.slice(0, pageSize);
  const lastRow = page.at(-1);
  return { items: items(page), hasMore: rows.length > pageSize, last: lastRow === undefined ? null : positionOf(lastRow) };
}

/** How often a running API re-reads whether the precomputed texts are current (a reindex may have just written them). */
const PUBLIC_JSON_CHECK_MS = 10_000;

/**
 * A map point reads only what presentMapPoint shows: typed columns plus six fields taken out of
 * `doc` by SQLite (one JSON parse per row in C) instead of building every point's whole document in
 * JS; for 2 000 points that is most of the time of /annonces/map.
 */
const MAP_POINT_COLUMNS = `l.id, l.source, l.lat, l.lon, l.price, l.price_per_m2, l.surface, l.rooms, ${textOf('title')} AS title, l.postal_code,
  json_extract(${textOf('doc')}, '$.content.reference', '$.content.price_per_m2_color', '$.content.type', '$.content.city', '$.content.images[0]', '$.content.is_internal') AS extra`;

export interface SqliteListingStoreOptions {
  /** Page cache of SQLite in MiB. */
  cacheMiB?: number;
  /**
   * Forces one full-text plan instead of choosing per query (text-plan.ts). Only the benchmarks set
   * it, to print both plans' figures beside the chosen one (npm run bench, "full text" table).
   */
  textPlan?: TextPlan;
  /** Rows per transaction of a bulk load (bulk-load.ts BULK_COMMIT_ROWS; tests use small ones). */
  bulkCommitRows?: number;
  /**
   * Index-first full text checks rows against in-memory document sets (text-sets.ts); false asks
   * FTS5 for each row instead (the benchmarks print both).
   */
  textSets?: boolean;
  /**
   * The default map's exact total counted over an in-memory copy of ix_map's coordinates
   * (map-counts.ts); false counts in SQL every time (the tests compare both).
   */
  mapCountsInMemory?: boolean;
  /**
   * Bytes of the file read through a memory map instead of read() calls (SQLite `mmap_size`, in MiB;
   * default 0). The API sets it (SQLITE_MMAP_MIB): a feed page 1.17-1.31 ms -> 0.74-0.89 ms at 1M.
   */
  mmapMiB?: number;
}

/** meta key of ListingStore.groupingPending. */
const GROUPING_PENDING = 'grouping_pending';

export class SqliteListingStore implements ListingStore {
  readonly backend = 'sqlite';
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private readonly docFrequency = new Map<string, { docs: number; at: number }>();
  private totalDocs: { count: number; at: number } | null = null;
  private readonly upsertStatement: Database.Statement;
  private readonly featureUpsert: Database.Statement;
  private readonly featureDelete: Database.Statement;
  private readonly textsUpsert: Database.Statement;
  private readonly annonceUpsert: Database.Statement;
  /** Set while a first build runs in bulk mode (duringBulkLoad). */
  private bulk: BulkLoad | null = null;
  private publicJson: { current: boolean; at: number } | null = null;
  private readonly indexes = new Map<string, { present: boolean; at: number }>();
  private readonly textSets: TextSetCache;
  private readonly mapPoints: MapPointsCache;
  private readonly reads: ListingReads;

  constructor(readonly file: string, private readonly options: SqliteListingStoreOptions = {}) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`cache_size = -${(options.cacheMiB ?? 256) * 1024}`);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('temp_store = MEMORY');
    if (options.mmapMiB) this.db.pragma(`mmap_size = ${options.mmapMiB * 1024 * 1024}`);
    addPresentedColumns(this.db);
    addOwnSurfaceColumn(this.db);
    // A bulk load that died before building its indexes is finished first (bulk-load.ts).
    recoverBulkLoad(this.db);
    const converted = moveTextsToTheirTable(this.db);
    this.db.exec(schemaForOpen(this.db));
    if (converted) rebuildFullText(this.db);
    ensureListingCount(this.db);
    markPresentedTextsOfEmptyStore(this.db, PUBLIC_JSON_VERSION);
    this.statements = new StatementCache(this.db);
    this.reads = new ListingReads(this.statements);
    this.textSets = new TextSetCache(this.db);
    this.mapPoints = new MapPointsCache(this.db);
    this.db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
    const columns = ROW_COLUMNS.join(', ');
    const updates = ROW_COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ');
    this.upsertStatement = this.db.prepare(
      `INSERT INTO listings (${columns}) VALUES (${ROW_COLUMNS.map((c) => '@' + c).join(', ')})
       ON CONFLICT(id) DO UPDATE SET ${updates} RETURNING rowid`,
    );
    this.featureUpsert = this.db.prepare(`INSERT OR REPLACE INTO dedup_features (rowid, ${FEATURE_COLUMNS.join(', ')})
      VALUES (?, ${FEATURE_COLUMNS.map(() => '?').join(', ')})`);
    this.featureDelete = this.db.prepare('DELETE FROM dedup_features WHERE rowid = ?');
    this.textsUpsert = this.db.prepare(`INSERT INTO listing_texts (rowid, ${TEXT_COLUMNS.join(', ')}) VALUES (?, ${TEXT_COLUMNS.map(() => '?').join(', ')})
      ON CONFLICT(rowid) DO UPDATE SET ${TEXT_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}`);
    this.annonceUpsert = this.db.prepare('INSERT INTO listing_annonces (rowid, public_json) VALUES (?, ?) ON CONFLICT(rowid) DO UPDATE SET public_json = excluded.public_json');
  }

  /** The underlying handle, for the indexer's maintenance commands and the benchmarks. */
  get database(): Database.Database { return this.db; }

  async search(query: SearchQuery): Promise<SearchResult<StoredListing>> {
    const sort = SORT_SPECS[query.sort];
    const parts = merge(scopeConditions(query.scope, query.grouped),
      filterConditions(query.filter, 'l', { transactionLeads: transactionLeads(query.filter, sort.byTransaction) }));
    const direction = sort.descending ? 'DESC' : 'ASC';
    if (query.after) {
      // Spelled out rather than as the row value `(key, l.id) < (?, ?)`: SQLite does not seek an
      // expression index (ifnull(price, 1e18), ...) on a row value, so every page scanned the index
      // from its start (page 1 000 of sort=price_asc took seconds). `key <= ?` is a range it seeks.
      const [key, id] = query.after as Param[];
      const op = sort.descending ? '<' : '>';
      parts.where.push(`${sort.expression} ${op}= ? AND (${sort.expression} ${op} ? OR l.id ${op} ?)`);
      parts.params.push(key, key, id);
    }
    const limit = query.pageSize + 1;
    const offset = query.after ? 0 : (query.page - 1) * query.pageSize;
    const order = `ORDER BY ${sort.expression} ${direction}, l.id ${direction}`;
    const presented = this.publicJsonCurrent();
    // The page's rows are chosen first, without their text, and only then read their text (`l.rowid`
    // of the outer query is the inner query's rowid column). When SQLite sorts (text first, or filters
    // that no index orders), it computes the result columns of every row that enters its top-N heap,
    // so a text in the result columns was read for rows the page then dropped (about 5 times the page
    // for 1 000 matches; offset + limit of them in page mode).
    if (presented) {
      // With the texts current, a page needs only what the sort index holds (rowid, id, the sort
      // key: no read of the listing rows when the filters are on the index too) and each text.
      const sql = this.withText(query.filter, parts, offset + limit, (from, where) =>
        `SELECT l.rowid, l.id, l.sort_key, ${textOf('public_json')} AS public_json
          FROM (SELECT l.rowid AS rowid, l.id AS id, ${sort.expression} AS sort_key FROM ${from} WHERE ${where} ${order} LIMIT ${limit} OFFSET ${offset}) l
          ORDER BY l.sort_key ${direction}, l.id ${direction}`);
      const rows = this.statement(sql.text).all(...sql.params) as IndexedPageRow[];
      return pageOf(rows, query.pageSize, (page) => this.indexedItems(page), (row) => [row.sort_key, row.id]);
    }
    const sql = this.withText(query.filter, parts, offset + limit, (from, where) =>
      `SELECT l.*, ${textOf('doc')} AS doc
        FROM (SELECT l.rowid AS rowid, ${PAGE_ROW_COLUMNS} FROM ${from} WHERE ${where} ${order} LIMIT ${limit} OFFSET ${offset}) l ${order}`);
    const rows = this.statement(sql.text).all(...sql.params) as ListingRow[];
    return pageOf(rows, query.pageSize, (page) => page.map(fromRow), (row) => [sort.keyOf(row), row.id]);
  }

  /**
   * The listings of a search or feed page from their index entries and texts; the rest of each read
   * from its row if asked. A row without its text (written while the texts were stale) is read whole.
   */
  private indexedItems(page: { rowid: number; id: string; public_json: Buffer | null }[]): StoredListing[] {
    const whole = (row: { rowid: number; id: string }) => {
      const full = this.reads.rowOf(row.rowid);
      if (!full) throw new Error(`listing ${row.id} left the store after its page was read`);
      return fromRow(full);
    };
    return page.map((row) => (row.public_json === null ? whole(row) : new IndexedPageListing(row.id, row.public_json, () => whole(row))));
  }

  async map(query: MapQuery): Promise<MapResult> {
    try {
      return this.mapOnce(query);
    } catch (error) {
      // An index dropped since hasIndex last looked (a first load's bulk mode drops them): look again.
      if (!/no such index/.test((error as Error).message)) throw error;
      this.indexes.clear();
      return this.mapOnce(query);
    }
  }

  /** `joinTexts` false: every point read as a row (after a box whose points lack a text). */
  private mapOnce(query: MapQuery, joinTexts = true): MapResult {
    // A box across the antimeridian (west > east) is two boxes.
    const boxes: BoundingBox[] = query.bbox.west <= query.bbox.east
      ? [query.bbox]
      : [{ ...query.bbox, east: 180 }, { ...query.bbox, west: -180 }];
    let total = 0;
    const points: MapPointListing[] = [];
    const joined = { count: 0, texts: [] as Buffer[] };
    const scope = scopeConditions(query.scope, query.grouped);
    // The default map (grouped, every site, no text) is served by covering indexes: the exact count
    // reads ix_map's entries only, where the R*Tree needs the listing row of every point in the box
    // to check `vis` and `entered_at` (about 3 µs per point: 130 ms for all of France), and the
    // points are the texts of ix_map_points' entries, no row read.
    const byIndex = !query.filter.words?.length && query.grouped && query.scope.eligibleSites === null;
    // Without any filter the exact total is counted in memory (map-counts.ts) while that copy is current.
    const inMemory = byIndex && filterConditions(query.filter).where.length === 0 && this.options.mapCountsInMemory !== false
      && this.hasIndex('ix_map') ? this.mapPoints.current() : null;
    const presented = this.publicJsonCurrent();
    // A store opened before `reindex` built ix_map_points (schemaForOpen) reads the texts from the rows;
    // while a first load runs in bulk mode (bulk-load.ts) neither index exists and the planner picks a plan.
    const countIndex = this.hasIndex('ix_map') ? 'ix_map' : null;
    const pointsIndex = this.hasIndex('ix_map_points') ? 'ix_map_points' : countIndex;
    for (const box of boxes) {
      const parts = byIndex
        ? merge({ where: ['l.lat >= ?', 'l.lat <= ?', 'l.lon >= ?', 'l.lon <= ?'], params: [box.south, box.north, box.west, box.east] }, scope, filterConditions(query.filter))
        : merge(
          { where: ['r.min_lat >= ?', 'r.max_lat <= ?', 'r.min_lon >= ?', 'r.max_lon <= ?'], params: [box.south, box.north, box.west, box.east] },
          scope, filterConditions(query.filter));
      if (query.filter.words?.length) {
        // The box drives the plan; the matching documents are materialised once by SQLite.
        parts.where.push('l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?)');
        parts.params.push(ftsMatchExpression(query.filter.words));
      }
      const from = (index: string | null) => {
        if (!byIndex) return 'listings_rtree r CROSS JOIN listings l ON l.rowid = r.id';
        return index === null ? 'listings l' : `listings l INDEXED BY ${index}`;
      };
      const where = parts.where.join(' AND ');
      total += inMemory
        ? inMemory.count(box, query.scope.enteredFrom)
        : (this.statement(`SELECT count(*) AS n FROM ${from(countIndex)} WHERE ${where}`).get(...parts.params) as { n: number }).n;
      const room = query.limit - points.length - joined.count;
      if (room <= 0) continue;
      if (presented && joinTexts) {
        // SQLite joins the 2 000 texts in C: one Buffer instead of 2 000 rows (measured at 1M: the
        // Paris box's points 3.8 ms as rows, 0.8 ms joined).
        const row = this.statement(`SELECT count(*) AS n, count(map_json) AS texts, CAST(group_concat(map_json, ',') AS BLOB) AS json
          FROM (SELECT l.map_json AS map_json FROM ${from(pointsIndex)} WHERE ${where} LIMIT ${room})`)
          .get(...parts.params) as { n: number; texts: number; json: Buffer | null };
        if (row.n === row.texts) {
          joined.count += row.n;
          if (row.json !== null) joined.texts.push(row.json);
          continue;
        }
        // Some point has no text (written while the texts were stale): all of them as rows.
        return this.mapOnce(query, false);
      }
      if (presented) {
        const rows = this.statement(`SELECT l.rowid AS rowid, CAST(l.map_json AS BLOB) AS map_json FROM ${from(pointsIndex)} WHERE ${where} LIMIT ${room}`)
          .all(...parts.params) as { rowid: number; map_json: Buffer | null }[];
        for (const row of rows) points.push(row.map_json === null ? this.mapPointOf(row.rowid) : new MapTextListing(row.map_json));
      } else {
        const rows = this.statement(`SELECT ${MAP_POINT_COLUMNS} FROM ${from(countIndex)} WHERE ${where} LIMIT ${room}`).all(...parts.params) as MapPointRow[];
        points.push(...rows.map(mapPointFromRow));
      }
    }
    if (!(presented && joinTexts)) return { total, points };
    return {
      total,
      joined,
      // Only tests and other callers than the route read the points one by one.
      get points(): MapPointListing[] {
        const objects = JSON.parse(`[${joined.texts.join(',')}]`) as unknown[];
        return objects.map((point) => new MapTextListing(Buffer.from(JSON.stringify(point))));
      },
    };
  }

  /**
   * Reads the in-memory copy of the default map's points now (map-counts.ts) instead of at the first
   * map request, and resolves once it is read. The API calls it at start-up.
   */
  async readMapPoints(): Promise<void> {
    if (this.options.mapCountsInMemory === false || !this.hasIndex('ix_map')) return;
    this.mapPoints.current();
    await this.mapPoints.settled();
  }

  /** A point without its text (a row written while the texts were stale), from its columns. */
  private mapPointOf(rowid: number): MapPointListing {
    return mapPointFromRow(this.statement(`SELECT ${MAP_POINT_COLUMNS} FROM listings l WHERE l.rowid = ?`).get(rowid) as MapPointRow);
  }

  async feed(query: FeedQuery): Promise<SearchResult<StoredListing>> {
    const parts = merge({ where: ['l.active = 1', 'l.changed_at <= ?'], params: [query.changedUntil] },
      siteConditions(query.scope), filterConditions(query.filter));
    if (query.filter.words?.length) {
      parts.where.push('l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?)');
      parts.params.push(ftsMatchExpression(query.filter.words));
    }
    return this.changeOrdered(parts, query.pageSize, query.after, true);
  }

  /**
   * Feed and withdrawn flow: keyset on (changed_at, change_seq), the order of the indexer's writes.
   * `fromIndex` (the feed): while the texts are current, a page is read like a search page, from
   * ix_feed's entries (changed_at, change_seq, id) and the texts, without the listing rows.
   */
  private changeOrdered(parts: SqlPart, pageSize: number, after: SortPosition | null, fromIndex = false): SearchResult<StoredListing> {
    if (after) {
      parts.where.push('(l.changed_at, l.change_seq) > (?, ?)');
      parts.params.push(...(after as Param[]));
    }
    const presented = this.publicJsonCurrent();
    if (presented && fromIndex) {
      const order = 'ORDER BY l.changed_at, l.change_seq';
      const rows = this.statement(`SELECT l.rowid, l.id, l.changed_at, l.change_seq, ${textOf('public_json')} AS public_json
        FROM (SELECT l.rowid AS rowid, l.id AS id, l.changed_at AS changed_at, l.change_seq AS change_seq
          FROM listings l WHERE ${parts.where.join(' AND ')} ${order} LIMIT ${pageSize + 1}) l ${order}`)
        .all(...parts.params) as IndexedFeedRow[];
      return pageOf(rows, pageSize, (page) => this.indexedItems(page), (row) => [row.changed_at, row.change_seq]);
    }
    const rows = this.statement(`SELECT ${presented ? PAGE_COLUMNS_PRESENTED : PAGE_COLUMNS} FROM listings l WHERE ${parts.where.join(' AND ')} ORDER BY l.changed_at, l.change_seq LIMIT ${pageSize + 1}`)
      .all(...parts.params) as (ListingRow | PageRow)[];
    return pageOf(rows, pageSize, (page) => this.pageListings(page, presented), (row) => [row.changed_at, row.change_seq]);
  }

  async withdrawn(query: WithdrawnQuery): Promise<SearchResult<StoredListing>> {
    const parts = merge({ where: ['l.active = 0', 'l.changed_at <= ?'], params: [query.changedUntil] }, siteConditions(query.scope));
    return this.changeOrdered(parts, query.pageSize, query.after);
  }

  async clusters(query: ClustersQuery): Promise<ClustersResult> {
    const { sql, params } = buildClustersSql(query);
    const cells = clusterCells(this.statement(sql).all(...params) as ClusterRow[], query.zoom);
    return { total: cells.reduce((sum, cell) => sum + cell.count, 0), cells };
  }

  async stats(query: StatsQuery): Promise<StatsResult> {
    const [active, withdrawn] = [buildActiveStatsSql(query), buildWithdrawnStatsSql(query)];
    return statsFromRows(this.statement(active.sql).raw().all(...active.params) as (number | null)[][],
      this.statement(withdrawn.sql).all(...withdrawn.params) as WithdrawnValues[]);
  }

  async get(id: string): Promise<StoredListing | null> {
    return this.reads.get(id);
  }

  async getMany(ids: string[]): Promise<Map<string, StoredListing>> {
    return this.reads.getMany(ids);
  }

  async findBlock(blockKey: string): Promise<StoredListing[]> {
    return this.reads.findBlock(blockKey);
  }

  async blockKeysAfter(after: string | null, limit: number): Promise<string[]> {
    return this.reads.blockKeysAfter(after, limit);
  }

  async groupingPending(): Promise<boolean> {
    return this.statement('SELECT 1 FROM meta WHERE key = ?').get(GROUPING_PENDING) !== undefined;
  }

  /** In the load's write transaction: in bulk mode the mark commits with the first rows, and its removal with the last group fields. */
  async setGroupingPending(pending: boolean): Promise<void> {
    this.inWriteTransaction(() => {
      if (pending) this.statement('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(GROUPING_PENDING, new Date().toISOString());
      else this.statement('DELETE FROM meta WHERE key = ?').run(GROUPING_PENDING);
    }, 0);
  }

  async findBlockCandidates(blockKey: string): Promise<BlockCandidate[]> {
    return this.reads.findBlockCandidates(blockKey);
  }

  async upsertMany(listings: StoredListing[]): Promise<WriteFailure[]> {
    return this.writeListings(listings, true);
  }

  /** As upsertMany, but the dedup features (own values only, dedup-features.ts) stay as stored: they cannot have changed. */
  async upsertGroupFields(listings: StoredListing[]): Promise<WriteFailure[]> {
    return this.writeListings(listings, false);
  }

  /**
   * upsertGroupFields for rows already encoded (toRow) in another thread: the grouping of a first
   * build encodes its rewrites in its worker thread (indexer/dedup/group-worker.ts). `rowAt` is asked
   * for each row just before its write, so that a row decoded then is garbage by the next one.
   */
  async upsertGroupRows(count: number, rowAt: (index: number) => ListingRow): Promise<WriteFailure[]> {
    this.inWriteTransaction(() => { for (let index = 0; index < count; index++) this.writeRow(rowAt(index)); }, count);
    return [];
  }

  private writeListings(listings: StoredListing[], features: boolean): WriteFailure[] {
    this.inWriteTransaction(() => {
      for (const listing of listings) {
        const row = toRow(listing);
        const rowid = this.writeRow(row);
        if (!features) continue;
        // Features are kept for exactly the listings findBlockCandidates can return.
        if (row.active === 1 && row.block_key !== null) this.featureUpsert.run(rowid, ...featureValuesOf(listing));
        else this.featureDelete.run(rowid);
      }
    }, listings.length);
    return [];
  }

  /** The row and its texts; returns its rowid. */
  private writeRow(row: ListingRow): number {
    const { rowid } = this.upsertStatement.get(row) as { rowid: number };
    this.textsUpsert.run(rowid, ...TEXT_COLUMNS.map((column) => row[column]));
    this.annonceUpsert.run(rowid, row.public_json);
    return rowid;
  }

  private inWriteTransaction(write: () => void, rows: number): void {
    if (this.bulk) this.bulk.write(write, rows);
    else this.db.transaction(write)();
  }

  /** The file, after committing what a bulk load has written so far (outside one every write is committed already). */
  async acquireWriterLock(): Promise<WriterLock> {
    if (this.file === ':memory:' || this.file === '') return { holder: currentIdentity(), release: async () => {} };
    return acquireSqliteWriterLock(this.file);
  }

  fileForReaders(): string {
    this.bulk?.commitNow();
    return this.file;
  }

  /**
   * A load (indexer/load.ts runs itself inside this): on an EMPTY store, bulk mode (bulk-load.ts:
   * indexes, full text and boxes built once at the end); on a store that holds listings, the load
   * as it is, since the API reads the same file meanwhile.
   */
  async duringBulkLoad<T>(load: () => Promise<T>): Promise<T> {
    const bulk = this.bulk ? null : BulkLoad.start(this.db, this.options.bulkCommitRows);
    if (!bulk) return load();
    this.bulk = bulk;
    try {
      return await load();
    } finally {
      this.bulk = null;
      bulk.finish();
    }
  }

  async maxChangeSeq(): Promise<number> {
    const row = this.statement('SELECT max(change_seq) AS seq FROM listings').get() as { seq: number | null };
    return row.seq ?? 0;
  }

  /** Kept by triggers (schema.ts ensureListingCount): one row read, whatever the page cache holds. */
  async count(): Promise<number> {
    return (this.statement('SELECT n FROM listing_count').get() as { n: number }).n;
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
   * current, build again the indexes whose definition changed (schema.ts), rebuild the full-text
   * index from the table, then ANALYZE.
   */
  rebuildIndexes(): void {
    if (!this.publicJsonCurrent()) this.rewritePublicJson();
    this.fillDedupFeatures();
    recreateChangedIndexes(this.db);
    // Builds the indexes that the store lacked when opened (schemaForOpen).
    this.db.exec(LISTINGS_SCHEMA);
    this.indexes.clear();
    rebuildFullText(this.db);
    this.db.exec('REINDEX');
    analyzeStore(this.db);
  }

  /** Stores the features of every active listing with a block key that has none (a store from before dedup_features). */
  private fillDedupFeatures(): void {
    const read = this.db.prepare(`SELECT l.rowid AS rowid, ${PAGE_COLUMNS} FROM listings l
      WHERE l.rowid > ? AND l.active = 1 AND l.block_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dedup_features f WHERE f.rowid = l.rowid)
      ORDER BY l.rowid LIMIT 2000`);
    for (let after = 0; ;) {
      const rows = read.all(after) as (ListingRow & { rowid: number })[];
      if (rows.length === 0) break;
      this.db.transaction(() => { for (const row of rows) this.featureUpsert.run(row.rowid, ...featureValuesOf(fromRow(row))); })();
      after = rows.at(-1)!.rowid;
    }
    this.fillOwnSurfaces();
  }

  /**
   * Writes `own_surface` (schema.ts addOwnSurfaceColumn) of the rows written before it existed, from
   * their stored features, in transactions of a few thousand rows so the WAL stays small.
   */
  private fillOwnSurfaces(): void {
    const fill = this.db.prepare(`UPDATE listings SET own_surface = ifnull((SELECT f.surface FROM dedup_features f WHERE f.rowid = listings.rowid), 0)
      WHERE rowid > ? AND rowid <= ? AND own_surface IS NULL AND active = 1 AND block_key IS NOT NULL`);
    const last = (this.db.prepare('SELECT ifnull(max(rowid), 0) AS n FROM listings').get() as { n: number }).n;
    for (let after = 0; after < last; after += 5000) fill.run(after, after + 5000);
  }

  /** Writes `public_json` and `map_json` of every row with the current presenters, then marks the texts current. */
  private rewritePublicJson(): void {
    const read = this.db.prepare(`SELECT l.rowid AS rowid, l.*, ${textOf('doc')} AS doc FROM listings l WHERE l.rowid > ? ORDER BY l.rowid LIMIT 2000`);
    const writeAnnonce = this.db.prepare('UPDATE listing_annonces SET public_json = ? WHERE rowid = ?');
    const writePoint = this.db.prepare('UPDATE listings SET map_json = ? WHERE rowid = ?');
    for (let after = 0; ;) {
      const rows = read.all(after) as (ListingRow & { rowid: number })[];
      if (rows.length === 0) break;
      this.db.transaction(() => {
        for (const row of rows) {
          const texts = toRow(fromRow(row));
          writeAnnonce.run(texts.public_json, row.rowid);
          writePoint.run(texts.map_json, row.rowid);
        }
      })();
      after = rows.at(-1)!.rowid;
    }
    this.db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(PUBLIC_JSON_META, String(PUBLIC_JSON_VERSION));
    this.publicJson = null;
  }

  /** Whether the store has this index (schemaForOpen leaves out those an older store lacks); re-read every PUBLIC_JSON_CHECK_MS. */
  private hasIndex(name: string): boolean {
    const now = Date.now();
    const known = this.indexes.get(name);
    if (known && now - known.at <= PUBLIC_JSON_CHECK_MS) return known.present;
    const present = this.statement("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
    this.indexes.set(name, { present, at: now });
    return present;
  }

  /** Whether the rows' `public_json` texts were written by the current presenter (schema.ts). */
  private publicJsonCurrent(): boolean {
    const now = Date.now();
    if (!this.publicJson || now - this.publicJson.at > PUBLIC_JSON_CHECK_MS) {
      const row = this.statement('SELECT value FROM meta WHERE key = ?').get(PUBLIC_JSON_META) as { value: string } | undefined;
      this.publicJson = { current: row?.value === String(PUBLIC_JSON_VERSION), at: now };
    }
    return this.publicJson.current;
  }

  /** Listings of a result page: from the precomputed texts when current, else from the documents. */
  private pageListings(rows: (ListingRow | PageRow)[], presented: boolean): StoredListing[] {
    if (!presented) return (rows as ListingRow[]).map(fromRow);
    const readDoc = (id: string) => (this.statement(`SELECT ${textOf('doc')} AS doc FROM listings l WHERE l.id = ?`).get(id) as { doc: string }).doc;
    return (rows as PageRow[]).map((row) => (row.public_json === null ? fromRow(this.fullRow(row.id)) : fromPageRow(row, row.public_json, readDoc)));
  }

  private fullRow(id: string): ListingRow {
    return this.statement(`SELECT ${PAGE_COLUMNS} FROM listings l WHERE id = ?`).get(id) as ListingRow;
  }

  /**
   * Adds the full-text condition in the plan that suits the rarest word (text-plan.ts), and renders
   * the statement with `render(from, where)`.
   */
  private withText(filter: ListingFilter, parts: SqlPart, rowsWanted: number, render: (from: string, where: string) => string): { text: string; params: Param[] } {
    const words = filter.words ?? [];
    if (words.length === 0) return { text: render('listings l', parts.where.join(' AND ')), params: parts.params };
    const match = ftsMatchExpression(words);
    const rarest = Math.min(...words.map((w) => this.documentFrequency(w)));
    const plan = this.options.textPlan ?? chooseTextPlan(rarest, this.totalDocuments(), Number.isFinite(rowsWanted) ? rowsWanted : this.totalDocuments(),
      this.options.textSets === false ? 'fts' : 'set');
    if (plan === 'text-first') {
      // CROSS JOIN keeps FTS5 as the outer loop: SQLite's planner would otherwise walk the sort index.
      const where = ['listings_fts MATCH ?'];
      const params: Param[] = [match];
      // With a department, only the documents of the department have their row read (`tomettes`, 2 210
      // documents, + a department, in a script at 1M: 1.52 -> 0.88 ms, median over 20 departments).
      const department = filter.department;
      if (department !== undefined && this.options.textSets !== false) {
        const key = `department=${department}`;
        if (this.textSets.prepareRows(key, () => this.statement('SELECT rowid FROM listings WHERE vis >= 1 AND department = ?').pluck().all(department) as number[])) {
          // Both sets current: their intersection, computed here, is the outer loop, and FTS5 is not
          // read at all (`tomettes` + the Nord, 51 matches: 352 -> 37 µs for the rows that match,
          // where calling the set's SQL function once per document of the word cost 0.1 µs a call).
          const both = this.textSets.prepare(match) ? this.textSets.intersection(match, key) : null;
          if (both) {
            return { text: render('json_each(?) j CROSS JOIN listings l ON l.rowid = j.value', parts.where.join(' AND ')), params: [JSON.stringify(both), ...parts.params] };
          }
          // Otherwise each document is checked in the department's set first (a term on f.rowid alone,
          // so SQLite tests it before reading the row).
          where.push('text_set_has(?, f.rowid)');
          params.push(key);
        }
      }
      return { text: render('listings_fts f CROSS JOIN listings l ON l.rowid = f.rowid', [...where, ...parts.where].join(' AND ')), params: [...params, ...parts.params] };
    }
    // Each row the sort index yields is checked against the expression's document set (text-sets.ts),
    // or, without a usable set, by an FTS5 lookup.
    const check = this.options.textSets !== false && this.textSets.prepare(match)
      ? 'text_set_has(?, l.rowid)'
      : 'EXISTS (SELECT 1 FROM listings_fts f WHERE listings_fts MATCH ? AND f.rowid = l.rowid)';
    return { text: render('listings l', [...parts.where, check].join(' AND ')), params: [...parts.params, match] };
  }

  private documentFrequency(word: string): number {
    const now = Date.now();
    const cached = this.docFrequency.get(word);
    if (cached && now - cached.at < DOC_FREQUENCY_TTL_MS) return cached.docs;
    const row = this.statement('SELECT doc FROM listings_fts_vocab WHERE term = ?').get(word) as { doc: number } | undefined;
    const docs = row?.doc ?? 0;
    if (this.docFrequency.size > 10_000) this.docFrequency.clear();
    this.docFrequency.set(word, { docs, at: now });
    return docs;
  }

  private totalDocuments(): number {
    const now = Date.now();
    if (!this.totalDocs || now - this.totalDocs.at > DOC_FREQUENCY_TTL_MS) {
      this.totalDocs = { count: (this.statement('SELECT max(rowid) AS n FROM listings').get() as { n: number | null }).n ?? 0, at: now };
    }
    return this.totalDocs.count;
  }

  private statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }
}

type MapPointRow = Pick<ListingRow, 'id' | 'source' | 'lat' | 'lon' | 'price' | 'price_per_m2' | 'surface' | 'rooms' | 'title' | 'postal_code'>
  & { extra: string };

/** A map point from its columns (MAP_POINT_COLUMNS): what presentMapPoint shows. */
function mapPointFromRow(row: MapPointRow): MapPointListing {
  const [reference, priceColor, type, city, image, isInternal] = JSON.parse(row.extra) as [string, string | null, string, string | null, string | null, boolean];
  const content = {
    source: row.source, reference, latitude: row.lat, longitude: row.lon, price: row.price, price_per_m2: row.price_per_m2,
    surface: row.surface, price_per_m2_color: priceColor, type, title: row.title, city, postal_code: row.postal_code,
    images: image === null ? [] : [image], rooms: row.rooms, is_internal: isInternal,
  } as unknown as StoredListing['content'];
  return { id: row.id, content };
}

function merge(...parts: SqlPart[]): SqlPart {
  return { where: parts.flatMap((p) => p.where), params: parts.flatMap((p) => p.params) };
}

export type { SortPosition };
