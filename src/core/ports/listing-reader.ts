/**
 * The ListingReader port: what the API reads from the listings (docs/architecture.md). Every engine
 * (SQLite, Elasticsearch) implements it; the reader half of the conformance suite
 * (test/conformance/listing-store.suite.ts) runs against each. The indexer's side is ListingIndex.
 */
import type { StoredListing } from '../model/stored.js';
import type { JsonText, PresentedDetail } from '../model/present.js';
import type { FeedQuery, MapQuery, SearchQuery, SearchResult, WithdrawnQuery } from '../query/query.js';
import type { ClustersQuery, ClustersResult, StatsQuery, StatsResult } from '../query/aggregates.js';
import type { FacetsQuery, FacetsResult } from '../query/facets.js';

/**
 * The points of a map box as the API sends them: `texts` joined with commas are the items of the
 * answer's array, each point the JSON text of presentMapPoint (src/core/model/present.ts). One text
 * may hold several points already joined (SQLite joins a box's points in SQL); `count` is the number
 * of points, which `capped` compares with `total`.
 */
/** How a capped map's points were spread over its box (src/core/query/map-sampling.ts). */
export interface MapSampling {
  /** Cells per side: the box is read as grid x grid cells. */
  grid: number;
}

export interface MapResult {
  total: number;
  count: number;
  texts: JsonText[];
  /** Set when the box held more listings than the limit: how the points were spread (map-sampling.ts). */
  sampling?: MapSampling;
}

export interface StoreHealth {
  ok: boolean;
  backend: string;
  listings?: number;
  detail?: string;
}

export interface ListingReader {
  readonly backend: string;

  // The routes' reads. The items of search, feed and withdrawn are for presenting: a store may give
  // listings holding only their Annonce text (`public_json`), id, status, change position and
  // withdrawal date (Elasticsearch does); a caller that needs every field asks the flows for whole
  // listings (`whole`) or reads them with get.
  search(query: SearchQuery): Promise<SearchResult<StoredListing>>;
  map(query: MapQuery): Promise<MapResult>;
  feed(query: FeedQuery): Promise<SearchResult<StoredListing>>;
  withdrawn(query: WithdrawnQuery): Promise<SearchResult<StoredListing>>;
  get(id: string): Promise<StoredListing | null>;
  /**
   * The detail of an id, presented: from the store's stored texts while they are current (no
   * listing read whole), else from the whole listing (presentAnnonce). `withPricePoints`: the
   * Annonce with its full price series (offers with that capability).
   */
  getPresented(id: string, options: { withPricePoints: boolean }): Promise<PresentedDetail | null>;
  /** Aggregate reads (src/core/query/aggregates.ts): the map's listings counted per web-map tile. */
  clusters(query: ClustersQuery): Promise<ClustersResult>;
  /** A search's facets (src/core/query/facets.ts): exact on both engines. */
  facets(query: FacetsQuery): Promise<FacetsResult>;
  /** Market statistics of an area: exact on SQLite, within the documented bound on Elasticsearch. */
  stats(query: StatsQuery): Promise<StatsResult>;

  // The service's own.
  count(): Promise<number>;
  health(): Promise<StoreHealth>;
  /**
   * Prepares what the first requests would otherwise wait for, once the API listens (SQLite: the
   * in-memory copy of the default map's points, src/adapters/sqlite-listings/map/points-in-memory.ts); resolves
   * when done. Nothing to do on an engine without such a copy.
   */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}
