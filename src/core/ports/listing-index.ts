/**
 * The ListingIndex port: what the indexer writes to the listings and looks up while it writes
 * (docs/architecture.md). Every engine (SQLite, Elasticsearch) implements it, and the index half of
 * the conformance suite (test/conformance/listing-store.suite.ts) runs against each. The API's side
 * is ListingReader.
 *
 * Every member is implemented by every engine. What only one engine can do is in `capabilities`: a
 * typed object, or null where the engine lacks it, so that a caller asks for it by name and the
 * compiler checks both cases.
 */
import type { StoredListing } from '../model/stored.js';
import type { Features } from '../dedup/features.js';
import type { SearchResult, SortPosition } from '../query/query.js';
import type { WriterLock, WriterLockRequest } from './writer-lock.js';
import type { ListingReader } from './listing-reader.js';
import type { StoreStatus } from './store-status.js';

/** A document the backend refused to write, with the reason. */
export interface WriteFailure {
  id: string;
  reason: string;
}

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

/**
 * What a snapshot load (`load --snapshot`) says it holds whole: every active listing of one site, or
 * of some of its departments (`departments` null: all of them, listings without a department too).
 */
export interface SnapshotScope {
  source: string;
  departments: readonly string[] | null;
}

/** A listing's absence count (StoredListing.absent_loads, absent_at): 0 and 0 while none runs. */
export interface Absence {
  loads: number;
  /** The pass (latest collected_at) of the last snapshot that counted it. */
  at: number;
}

/** A write of the indexer: the full new state of one site listing. */
export type ListingWrite = StoredListing;

/**
 * A block's candidates read from features the store keeps beside each listing (SQLite's table,
 * Elasticsearch's `dedup_bin` doc value), without the listings' documents. Without it the stage reads
 * whole listings, many blocks a read (findBlocks), and makes the candidates itself.
 */
export interface StoredCandidates {
  findBlockCandidates(blockKey: string): Promise<BlockCandidate[]>;
  /**
   * Many blocks' candidates in one read (each key mapped, to [] when it has none), where a read
   * costs a round trip (Elasticsearch): the stage then reads a batch's blocks together. Absent, it
   * reads block by block (SQLite: a read is a lookup in the file).
   */
  findBlocksCandidates?(blockKeys: string[]): Promise<Map<string, BlockCandidate[]>>;
}

/** A row in the engine's own encoding (a text), made in the grouping worker and read back by that engine's writer. */
export type EncodedRow = string;

/**
 * A rewrite the grouping worker encoded, with the feed position the load's thread numbered for it
 * (`change`) when its public output changed, or null when it keeps its own.
 */
export interface EncodedGroupRow {
  row: EncodedRow;
  change: { change_seq: number; changed_at: number } | null;
}

/** What the grouping worker reads in its thread: the grouping's lookups, on a read-only connection of its own. */
export type GroupWorkerLookups = Pick<ListingIndex, 'findBlock' | 'findBlocks' | 'getMany' | 'blockKeysAfter'> & {
  readonly capabilities: Pick<IndexCapabilities, 'storedCandidates'>;
};

/** The store as the grouping worker's thread opens it (GroupWorkerReaderModule). */
export interface GroupWorkerReader {
  lookups: GroupWorkerLookups;
  /** A rewrite in the encoding upsertGroupRows reads back. */
  encode(listing: StoredListing): EncodedRow;
  close(): void;
}

/** What the module named by GroupWorkerSource.module exports. */
export interface GroupWorkerReaderModule {
  /** Opens the store's file read-only, with a page cache of `cacheMiB`; throws when it cannot. */
  openGroupWorkerReader(file: string, cacheMiB: number): GroupWorkerReader;
}

/**
 * How another thread opens the store: the engine's own module (a URL the worker thread imports, so
 * the indexer imports no adapter) and the store's file.
 */
export interface GroupWorkerSource {
  module: string;
  file: string;
}

/**
 * An embedded store that another thread can read through a connection of its own (SQLite): the
 * grouping at the end of a first build then runs in a worker thread (indexer/dedup/group-worker.ts),
 * which hands back its rewrites already encoded as the store's rows.
 */
export interface GroupWorkerSupport {
  /** How the worker opens the store, once what this connection has written is committed. */
  readerSource(): GroupWorkerSource;
  /** upsertGroupFields for rows the worker encoded; `rowAt` is asked for each row just before its write. */
  upsertGroupRows(count: number, rowAt: (index: number) => EncodedGroupRow): Promise<WriteFailure[]>;
}

/**
 * An engine whose first build should be written once (Elasticsearch): without stored candidates, a
 * first build grouped at its end reads its blocks back and rewrites the grouped documents. The indexer
 * keeps the records aside instead, groups them there and writes each listing once with its group
 * (indexer/first-build/), `pageSize` listings a write.
 */
export interface FirstBuildAside {
  pageSize: number;
  /**
   * A durable mark, set before such a build writes anything to the store and cleared once it wrote
   * every listing: a load finding it is the rerun of a killed build, which is kept aside again from
   * its files and numbers its changes from where the killed build did, so that it writes the same
   * listings at the same positions, with the same group keys (minted from them), over what it wrote.
   */
  begun(): Promise<FirstBuildMark | null>;
  setBegun(mark: FirstBuildMark | null): Promise<void>;
  /**
   * One page of the build written, as upsertMany does but with no journal of its own: under the mark,
   * a build killed half-way through a page is rerun whole, and writes that page again.
   */
  writePage(listings: StoredListing[]): Promise<WriteFailure[]>;
}

/** Where a first build kept aside numbers its changes from: the store's highest change_seq when it began. */
export interface FirstBuildMark {
  changeSeqFrom: number;
}

/** What only some engines can do: each member is null on an engine without it. */
export interface IndexCapabilities {
  storedCandidates: StoredCandidates | null;
  groupWorker: GroupWorkerSupport | null;
  firstBuildAside: FirstBuildAside | null;
}

export interface ListingIndex {
  readonly backend: string;
  readonly capabilities: IndexCapabilities;

  // Lookups of the indexer.
  /** Current state of these ids (missing ids are absent from the map). */
  getMany(ids: string[]): Promise<Map<string, StoredListing>>;
  /** Active listings of one block (transaction|type|postal code|price bucket, src/core/dedup/block-key.ts). */
  findBlock(blockKey: string): Promise<StoredListing[]>;
  /**
   * findBlock for several blocks (Elasticsearch: one search instead of one a block; a batch's
   * grouping reads hundreds). Every key asked is in the map, empty blocks too.
   */
  findBlocks(blockKeys: string[]): Promise<Map<string, StoredListing[]>>;
  /**
   * The listings of these blocks that left the market at or after `leftSince` (epoch ms), whatever
   * the reason: what a new listing may be a relisting of (indexer/relisting.ts). Few per block: a
   * withdrawal window of 90 days, not the whole history.
   */
  withdrawnInBlocks(blockKeys: string[], leftSince: number): Promise<StoredListing[]>;
  /**
   * The distinct block keys of the active listings after `after` (null: from the first), in
   * ascending order, at most `limit`. The keys of one base are consecutive in that order. With it a
   * first build groups the whole catalogue once at its end instead of batch by batch (indexer/dedup/stage.ts).
   */
  blockKeysAfter(after: string | null, limit: number): Promise<string[]>;
  /**
   * A durable mark, written with the store's data, that a first build's records are (being) written
   * ungrouped and its grouping at the end has not completed. A load killed before the end leaves it
   * set, and the next load groups the whole store at its end again instead of counting the committed
   * rows as unchanged and leaving them ungrouped.
   */
  groupingPending(): Promise<boolean>;
  setGroupingPending(pending: boolean): Promise<void>;
  /**
   * One page of the whole catalogue, every site and date, in the order of the writes: the active
   * listings or the others. The rebuild and the evaluations read the store with it (indexer/dedup/scan.ts).
   */
  catalogue(which: 'active' | 'inactive', after: SortPosition | null, pageSize: number): Promise<SearchResult<StoredListing>>;
  /** Highest change_seq ever written (0 for an empty store). */
  maxChangeSeq(): Promise<number>;
  /**
   * Latest changed_at the store holds (0 for an empty store). A writer never writes a change before
   * it (indexer/change-clock.ts): the order of the feed then follows the order of the writes even
   * when a writer's clock is behind the previous writer's.
   */
  maxChangedAt(): Promise<number>;
  count(): Promise<number>;
  /**
   * Every ACTIVE listing of a snapshot's scope, with its absence count: one read of ids, without the
   * listings' documents, at any scope's size.
   */
  activeInScope(scope: SnapshotScope): Promise<Map<string, Absence>>;

  // Writes of the indexer.
  /**
   * The absence counts of some active listings (with their pass), and nothing else of them: no change position, no
   * public field (SQLite: one UPDATE of a column each, in one transaction; Elasticsearch: the whole
   * documents written again at their change_seq, since an update would lose the texts kept out of
   * `_source`). 0 loads clears a count. A store that cannot keep them (an Elasticsearch index of an older
   * mapping) throws StoreBehindError before anything is written.
   */
  recordAbsences(counts: ReadonlyMap<string, Absence>): Promise<void>;
  /**
   * `change_seq` values are assigned by the caller. Returns the documents the backend refused one by
   * one (SQLite writes a batch in one transaction and refuses none; Elasticsearch may refuse a
   * document, e.g. a mapping error), so the indexer sends them to its rejects file.
   */
  upsertMany(listings: ListingWrite[]): Promise<WriteFailure[]>;
  /**
   * upsertMany for listings whose own content is as stored and only their group fields (dedup_key,
   * sources[], completion) changed: the grouping's rewrites. The backend may skip what depends on own
   * content alone (SQLite: the dedup features); Elasticsearch writes them as upsertMany.
   */
  upsertGroupFields(listings: ListingWrite[]): Promise<WriteFailure[]>;
  /**
   * Runs one indexer load (`load`) in the backend's bulk mode: Elasticsearch turns periodic
   * refreshes off; SQLite, on an empty store only, builds its secondary indexes once at the end.
   */
  duringBulkLoad<T>(load: () => Promise<T>): Promise<T>;
  /**
   * Keeps the report of the load that just ended (with the time it ended), for storeStatus; the
   * previous one is replaced.
   */
  recordLoad(report: Record<string, unknown>, at: number): Promise<void>;
  /** The store's state for an operator (src/core/ports/store-status.ts); reads only. */
  storeStatus(): Promise<StoreStatus>;
  /**
   * The store's single-writer lock (src/core/ports/writer-lock.ts), taken by every writing command
   * before it reads maxChangeSeq; throws WriterBusyError while another live writer holds it.
   */
  acquireWriterLock(request: WriterLockRequest): Promise<WriterLock>;
  close(): Promise<void>;
}

const EVERYTHING = { enteredFrom: Number.MIN_SAFE_INTEGER, eligibleSites: null };

/**
 * ListingIndex.catalogue through an engine's own feed and withdrawn flow, which page in the order of
 * the writes already, without a filter, a site or a date.
 */
export function catalogueThroughFlows(
  reader: Pick<ListingReader, 'feed' | 'withdrawn'>,
  which: 'active' | 'inactive',
  after: SortPosition | null,
  pageSize: number,
): Promise<SearchResult<StoredListing>> {
  const flow = { scope: EVERYTHING, changedUntil: Number.MAX_SAFE_INTEGER, pageSize, after };
  return which === 'active' ? reader.feed({ ...flow, filter: {} }) : reader.withdrawn(flow);
}
