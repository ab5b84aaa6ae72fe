/**
 * The ListingStore port (docs/architecture.md). Every backend (SQLite, Elasticsearch)
 * implements it; one conformance suite (test/conformance/listing-store.*) runs against each.
 */
import type { MapPointListing, StoredListing } from '../model/stored.js';
import type { Features } from '../dedup/features.js';
import type { FeedQuery, MapQuery, SearchQuery, SearchResult, WithdrawnQuery } from '../query/query.js';
import type { WriterLock, WriterLockRequest } from './writer-lock.js';
import type { ClustersQuery, ClustersResult, StatsQuery, StatsResult } from '../query/aggregates.js';

export interface MapResult {
  total: number;
  points: MapPointListing[];
  /**
   * The same points as their JSON texts already joined with commas, when the store can give them so
   * (SQLite: joined by `group_concat` from its covering index): the route sends these bytes instead
   * of one text per point. `points` is then made from them only if someone reads it.
   */
  joined?: { count: number; texts: Buffer[] };
}

export interface StoreHealth {
  ok: boolean;
  backend: string;
  listings?: number;
  detail?: string;
}

/** A document the backend refused to write, with the reason. */
export interface WriteFailure { id: string; reason: string }

/**
 * An active listing of a block as the indexer's grouping stage compares it: what the scorer and the
 * key rules read, without the listing's document. The stage reads the whole listing (getMany) only
 * for the members of the groups it changes.
 */
export interface BlockCandidate {
  id: string;
  dedup_key: string | null;
  change_seq: number;
  catalogue_entered_at: number;
  block_key: string;
  features: Features;
  /** The whole listing, when the backend read it anyway (the stage then does not read it again). */
  listing?: StoredListing;
}

/** A write of the indexer: the full new state of one site listing. */
export type ListingWrite = StoredListing;

export interface ListingStore {
  readonly backend: string;
  search(query: SearchQuery): Promise<SearchResult<StoredListing>>;
  map(query: MapQuery): Promise<MapResult>;
  feed(query: FeedQuery): Promise<SearchResult<StoredListing>>;
  withdrawn(query: WithdrawnQuery): Promise<SearchResult<StoredListing>>;
  /** Aggregate reads (src/core/query/aggregates.ts): the map's listings counted per web-map tile. */
  clusters(query: ClustersQuery): Promise<ClustersResult>;
  /** Market statistics of an area: exact on SQLite, within the documented bound on Elasticsearch. */
  stats(query: StatsQuery): Promise<StatsResult>;
  get(id: string): Promise<StoredListing | null>;
  /** Indexer reads: current state of these ids (missing ids are absent from the map). */
  getMany(ids: string[]): Promise<Map<string, StoredListing>>;
  /** Indexer reads for deduplication: active listings of one block (transaction|type|postal code|price bucket, src/core/dedup/block-key.ts). */
  findBlock(blockKey: string): Promise<StoredListing[]>;
  /**
   * Optional: findBlock for several blocks in one read (Elasticsearch: one search instead of one a
   * block; a batch's grouping reads hundreds). Every key asked is in the map, empty blocks too.
   */
  findBlocks?(blockKeys: string[]): Promise<Map<string, StoredListing[]>>;
  /**
   * Optional, the same listings as findBlock as candidates (from stored features: SQLite). Without
   * it the stage makes candidates of findBlock's listings.
   */
  findBlockCandidates?(blockKey: string): Promise<BlockCandidate[]>;
  /**
   * Optional: the distinct block keys of the active listings after `after` (null: from the first), in
   * ascending order, at most `limit`. The keys of one base are consecutive in that order. With it a
   * first build groups the whole catalogue once at its end instead of batch by batch (indexer/dedup/stage.ts).
   */
  blockKeysAfter?(after: string | null, limit: number): Promise<string[]>;
  /**
   * Optional, with blockKeysAfter: a durable mark, written with the store's data, that a first build's
   * records are (being) written ungrouped and its grouping at the end has not completed. A load killed
   * before the end leaves it set, and the next load groups the whole store at its end again instead
   * of counting the committed rows as unchanged and leaving them ungrouped. A backend without these
   * methods never defers its grouping (stage.ts).
   */
  groupingPending?(): Promise<boolean>;
  setGroupingPending?(pending: boolean): Promise<void>;
  /**
   * Indexer writes. `change_seq` values are assigned by the caller. Returns the documents the backend
   * refused one by one (SQLite writes a batch in one transaction and refuses none; Elasticsearch may
   * refuse a document, e.g. a mapping error), so the indexer sends them to its rejects file.
   */
  upsertMany(listings: ListingWrite[]): Promise<WriteFailure[]>;
  /**
   * Optional, upsertMany for listings whose own content is as stored and only their group fields
   * (dedup_key, sources[], completion) changed: the grouping's rewrites. The backend may skip what
   * depends on own content alone (SQLite: the dedup features).
   */
  upsertGroupFields?(listings: ListingWrite[]): Promise<WriteFailure[]>;
  /**
   * Optional: runs one indexer load (`load`) in the backend's bulk mode: Elasticsearch turns periodic
   * refreshes off; SQLite, on an empty store only, builds its secondary indexes once at the end.
   */
  duringBulkLoad?<T>(load: () => Promise<T>): Promise<T>;
  /**
   * Optional: the file of an embedded store, for read-only connections of other threads (the
   * indexer's grouping worker), once what this connection has written is committed (SQLite).
   */
  fileForReaders?(): string;
  /**
   * The store's single-writer lock (src/core/ports/writer-lock.ts), taken by every writing command
   * before it reads maxChangeSeq; throws WriterBusyError while another live writer holds it.
   */
  acquireWriterLock(request: WriterLockRequest): Promise<WriterLock>;
  /** Highest change_seq ever written (0 for an empty store). */
  maxChangeSeq(): Promise<number>;
  count(): Promise<number>;
  health(): Promise<StoreHealth>;
  close(): Promise<void>;
}

/** Raised by a backend that cannot be reached; the API answers 503 SERVICE_UNAVAILABLE. */
export class StoreUnavailableError extends Error {
  constructor(readonly backend: string, cause?: unknown) {
    super(`${backend} is unavailable`);
    this.name = 'StoreUnavailableError';
    if (cause) (this as { cause?: unknown }).cause = cause;
  }
}
