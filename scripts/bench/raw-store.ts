/**
 * The physical limit of the API: the same question asked of the store in-process, without HTTP,
 * auth, validation, quota accounting or JSON. An HTTP path is turned into the engine-neutral query
 * exactly as the route does (the route's own zod schema and toListingFilter), then timed as
 * store.search / map / feed / get on the same store the server uses (median of N calls): the same
 * SQLite file, or an ElasticsearchListingStore on the same alias.
 */
import { searchOrder } from '../../src/api/routes/annonces/handler.js';
import { SqliteListingStore, type SqliteListingStoreOptions } from '../../src/adapters/sqlite-listings/listing-store.js';
import type { ListingStore } from '../../src/core/ports/listing-store.js';
import { openElasticsearchStore } from '../../src/adapters/elasticsearch/open.js';
import type { Scope, SearchQuery } from '../../src/core/query/query.js';
import { CursorCodec } from '../../src/core/query/cursor.js';
import { loadPtzLookup } from '../../src/core/refdata/ptz.js';
import { listingId } from '../../src/core/model/stored.js';
import { toListingFilter } from '../../src/api/routes/shared/listing-filter.js';
import { SearchParams } from '../../src/api/routes/annonces/schema.js';
import { MapParams } from '../../src/api/routes/map/schema.js';
import { FeedParams } from '../../src/api/routes/feed/schema.js';
import { WithdrawnParams } from '../../src/api/routes/retirees/schema.js';
import { loadConfig } from '../../src/config/config.js';
import { MAP_POINT_LIMIT } from '../../src/api/routes/map/handler.js';
import { ClustersParams } from '../../src/api/routes/clusters/schema.js';
import { StatsParams } from '../../src/api/routes/stats/schema.js';
import { DAY_MS, WITHDRAWN_WINDOW_DAYS } from '../../src/core/query/aggregates.js';
import { foldText } from '../../src/core/refdata/text.js';
import { median, timeMs } from './stats.js';

export type StoreCall = () => Promise<unknown>;

export class RawStore<S extends ListingStore = ListingStore> {
  private readonly cursors: CursorCodec;
  private readonly ptz = loadPtzLookup();
  private readonly scope: Scope;

  constructor(
    readonly store: S,
    enteredFrom: number,
    cursorSecret: string,
  ) {
    this.cursors = new CursorCodec(cursorSecret);
    this.scope = { enteredFrom, eligibleSites: null };
  }

  /**
   * On the SQLite file, with the server's options (src/service.ts): default page cache, SQLITE_MMAP_MIB;
   * without the kept map answers, since medianMs times each query again after a first call, and the
   * raw time is the reads' cost.
   */
  static sqlite(file: string, enteredFrom: number, cursorSecret: string, options: SqliteListingStoreOptions = {}): RawStore<SqliteListingStore> {
    const config = loadConfig(process.env);
    return new RawStore(new SqliteListingStore(file, { mmapMiB: config.sqliteMmapMiB, mapAnswersKept: false, ...options }), enteredFrom, cursorSecret);
  }

  /** On the alias, opened as the server opens it (src/open-listing-store.ts with ES_URL set). */
  static async elasticsearch(url: string, alias: string, enteredFrom: number, cursorSecret: string): Promise<RawStore> {
    return new RawStore(await openElasticsearchStore({ url, alias }), enteredFrom, cursorSecret);
  }

  /** The store call behind an API path (relative to /api/v1). */
  callFor(pathAndQuery: string): StoreCall {
    const url = new URL(pathAndQuery, 'http://bench');
    const query = Object.fromEntries(url.searchParams);
    const route = url.pathname;
    if (route === '/annonces') {
      const search = this.searchQuery(query);
      const { facets } = SearchParams.parse(query);
      if (!facets) return () => this.store.search(search);
      // As the route: the page and the facets side by side (src/api/routes/annonces/handler.ts).
      const facetsQuery = { filter: search.filter, scope: search.scope, grouped: search.grouped, facets };
      return () => Promise.all([this.store.search(search), this.store.facets(facetsQuery)]);
    }
    if (route === '/annonces/map') {
      const params = MapParams.parse(query);
      const mapQuery = { filter: toListingFilter(params), scope: this.scope, grouped: params.dedup !== '0', bbox: params.bbox, limit: MAP_POINT_LIMIT };
      return () => this.store.map(mapQuery);
    }
    if (route === '/annonces/map/clusters') {
      const params = ClustersParams.parse(query);
      const clustersQuery = {
        filter: toListingFilter(params),
        scope: this.scope,
        grouped: params.dedup !== '0',
        bbox: params.bbox,
        zoom: params.zoom + params.precision,
      };
      return () => this.store.clusters(clustersQuery);
    }
    if (route === '/stats') {
      // The bench's paths give a department or a postal code (src/api/routes/stats/handler.ts areaOf).
      const params = StatsParams.parse(query);
      const area =
        params.dept !== undefined
          ? { kind: 'department' as const, department: params.dept.toUpperCase() }
          : { kind: 'postalCode' as const, postalCode: params.cp! };
      const statsQuery = {
        area,
        types: params.type ? params.type.split(',').map(foldText) : undefined,
        transaction: params.transaction,
        scope: this.scope,
        grouped: true,
        withdrawnSince: Date.now() - WITHDRAWN_WINDOW_DAYS * DAY_MS,
      };
      return () => this.store.stats(statsQuery);
    }
    if (route === '/annonces/feed') {
      const params = FeedParams.parse(query);
      const after = params.cursor ? this.cursors.decode('feed', params.cursor) : null;
      const filter = toListingFilter(params);
      return () => this.store.feed({ filter, scope: this.scope, changedUntil: Date.now(), pageSize: params.page_size, after });
    }
    if (route === '/annonces/retirees') {
      const params = WithdrawnParams.parse(query);
      const after = params.cursor ? this.cursors.decode('retirees', params.cursor) : null;
      return () => this.store.withdrawn({ scope: this.scope, changedUntil: Date.now(), pageSize: params.page_size, after });
    }
    if (route === '/ptz/zone') {
      const cp = url.searchParams.get('cp') ?? '';
      return async () => this.ptz.zoneOf(cp);
    }
    const detail = /^\/annonces\/([^/]+)\/([^/]+)$/.exec(route);
    if (detail) {
      const id = listingId(decodeURIComponent(detail[1]), decodeURIComponent(detail[2]));
      return () => this.store.get(id);
    }
    throw new Error(`no raw store call for ${pathAndQuery}`);
  }

  /** What src/api/routes/annonces/handler.ts builds from the same parameters. */
  searchQuery(query: Record<string, string>): SearchQuery {
    const params = SearchParams.parse(query);
    let after = null;
    if (params.cursor) {
      const decoded = this.cursors.decode(`search:${params.sort}`, params.cursor);
      after = decoded.slice(0, -1);
    }
    return {
      filter: toListingFilter(params),
      scope: this.scope,
      grouped: params.dedup !== '0' && params.dedup !== 'false',
      ...searchOrder(params),
      pageSize: params.page_size,
      page: after ? 1 : params.page,
      after,
    };
  }

  /**
   * Median milliseconds of `runs` calls over the first `runs` paths. Each call is made once untimed
   * first: the server answers from a warm cache during a load, so the raw time does too.
   */
  async medianMs(paths: readonly string[], runs: number): Promise<number> {
    const calls = paths.slice(0, Math.max(runs, 1)).map((p) => this.callFor(p));
    // As the server does at start-up (SQLite: the map's in-memory point copy is read before the timing).
    await this.store.warmUp();
    for (const call of calls) await call();
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) samples.push(await timeMs(calls[i % calls.length]));
    return median(samples);
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
