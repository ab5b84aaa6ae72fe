/**
 * DedupGrouping: the grouping stage of a load (indexer/grouping.ts) that groups cross-site duplicates.
 *
 * For each batch, incrementally, with all state in the store (nothing is kept between batches):
 * 1. read the blocks around the batch's listings as candidates (blocks.ts: the ACTIVE listings of a
 *    transaction|type|postal code|price bucket, by their features; a listing's candidates are in its
 *    bucket and the two around it), and the blocks around the group each batch listing was in;
 * 2. per base (transaction|type|postal code), regroup the parts reachable from what changed: the
 *    batch's listings and the members of the groups they belonged to (regroup.ts). When a listing
 *    reached has candidates in a block not read yet, read it and regroup again, so the groups are
 *    exactly those a rebuild of the whole base gives (cluster.ts explains why). Then read whole
 *    (getMany) the members of the groups whose fields can change, and compute their fields;
 * 3. return the batch with its group fields, plus every other member whose group fields changed.
 *
 * A listing that leaves the market, or moves to another block, leaves its group, and its old group
 * is regrouped, so when the reference listing leaves the next site becomes the reference. An inactive
 * listing carries no group fields (dedup_key null, no sources[], no completion): the withdrawn flow
 * delivers it as its own site wrote it.
 *
 * A first build (a load into an empty store whose backend lists its block keys, blockKeysAfter) groups
 * once at its end instead: its batches are written ungrouped, then `finish` regroups every base
 * from scratch, in the order of the block keys, and hands back the members whose group fields are
 * not those of a listing alone. The groups are the same (the clustering does not depend on the order
 * of the loads, cluster.ts); the keys are minted from the final groups' oldest members, so a group
 * that formed by merges batch by batch may carry another (equally new) key. Batch by batch, a first
 * build of 1M records read about 36 candidates per record in random order from a store growing
 * under it; at the end each block is read once, in order.
 *
 * Feed redelivery: a listing whose public output changed (dedup_key, sources[], completed fields)
 * gets a new change_seq/changed_at, unless the merge already gave it one in this batch; a listing
 * whose group fields did not change is not rewritten.
 */
import { baseOfKey, blockKeyOf, neighbourKeys } from '../../src/core/dedup/block-key.js';
import type { SiteCatalog } from '../../src/core/model/sites.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BlockCandidate, ListingIndex } from '../../src/core/ports/listing-index.js';
import { listingsPage, type GroupingStage, type GroupWritePage } from '../grouping.js';
import type { MergeClock } from '../merge.js';
import { activeBlockKeyOf, BlockCache, candidateOf, LoadedBlocks, readBlocks, readsManyBlocks } from './blocks.js';
import { groupFieldsDiffer, publicGroupOutputDiffers, ungroupedFields } from './group-output.js';
import { clusterRegroup, currentGroupFields, regroupedFields, type RegroupMember, type Regrouping } from './regroup.js';
import { regroupEveryBase } from './whole-base.js';
import { groupInWorker } from './group-worker-client.js';

export interface DedupOptions {
  sites: SiteCatalog;
  /** Score threshold (score.ts MATCH_THRESHOLD by default). */
  threshold?: number;
  /** Candidates kept by the block cache between batches (blocks.ts); 0 reads every block from the store. */
  cacheListings?: number;
  /** A first build groups once at its end (default true); false groups it batch by batch like any load. */
  groupFirstBuildAtEnd?: boolean;
  /** Block keys read per page by the grouping at the end of a first build (default EVERY_BASE_PAGE; tests use small pages). */
  blockKeysPerPage?: number;
  /**
   * A first build groups in a worker thread when the store lends its file to readers (SQLite).
   * Default false: the worker groups faster, but the pages it hands back raise the load's peak
   * memory above the indexer's budget on the largest catalogues (docs/benchmarks-history.md).
   */
  groupInWorker?: boolean;
}

/**
 * Each cached candidate costs heap (its features, mostly the description's shingles), so the cache is bounded.
 * A load's input is not ordered by block, so most blocks of a big catalogue are read from the store
 * anyway; the cache serves the big blocks (city districts) most batches touch.
 */
export const DEFAULT_CACHE_LISTINGS = 10_000;

/** Uncached blocks read together, at most (one search on Elasticsearch). */
const READ_CHUNK = 500;

/** A base waiting to be regrouped: the blocks it holds, and the ones it needs next. */
interface PendingBase {
  base: string;
  blocks: LoadedBlocks;
  keys: Iterable<string>;
}

/** One regrouping of a base with the blocks it holds: exact, or the blocks it reached and does not hold. */
type RegroupAttempt = { regrouping: Regrouping<BlockCandidate> } | { missing: Set<string> };

export class DedupGrouping implements GroupingStage {
  private formed = 0;
  private readonly cache: BlockCache;
  private cacheStore: ListingIndex | null = null;
  /** This load is a first build: its batches are written ungrouped and `finish` groups them (begin()). */
  private atEnd = false;

  constructor(private readonly options: DedupOptions) {
    this.cache = new BlockCache(options.cacheListings ?? DEFAULT_CACHE_LISTINGS);
  }

  get groupsFormed(): number {
    return this.formed;
  }

  /** Set when finish() grouped in a worker thread. */
  groupedInWorker = false;

  /** The block cache (for tests and diagnostics: it must equal the store's blocks it holds). */
  get blockCache(): Pick<BlockCache, 'cached' | 'size'> {
    return this.cache;
  }

  async begin(store: ListingIndex): Promise<void> {
    // Deferring needs a durable mark: a first build killed before its grouping ended leaves rows
    // ungrouped that a rerun reads as unchanged; the mark makes that rerun group the whole store.
    if (await store.groupingPending()) {
      this.atEnd = true;
      return;
    }
    this.atEnd = this.options.groupFirstBuildAtEnd !== false && (await store.count()) === 0;
    if (this.atEnd) await store.setGroupingPending(true);
  }

  async apply(batch: StoredListing[], store: ListingIndex, clock: MergeClock, before?: ReadonlyMap<string, StoredListing>): Promise<StoredListing[]> {
    // Grouped at the end: written as merged, which keeps a stored listing's group fields (and so its
    // group key, which the regrouping keeps) and gives a new one none.
    if (this.atEnd) return batch;
    const dirty = new Map(batch.map((listing) => [listing.id, listing]));
    // The cache is a copy of one store's blocks: another store starts it again.
    if (this.cacheStore !== store) this.cache.clear();
    this.cacheStore = store;
    // 1. The blocks around where the batch's listings go...
    const keysByBase = new Map<string, Set<string>>();
    const around = (key: string) => {
      const base = baseOfKey(key);
      let keys = keysByBase.get(base);
      if (!keys) keysByBase.set(base, (keys = new Set()));
      for (const neighbour of neighbourKeys(key)) keys.add(neighbour);
    };
    const joining = new Map<string, BlockCandidate[]>();
    for (const listing of batch) {
      const key = activeBlockKeyOf(listing);
      if (key === null) continue;
      const base = baseOfKey(key);
      const list = joining.get(base);
      if (list) list.push(candidateOf(listing));
      else joining.set(base, [candidateOf(listing)]);
      around(key);
    }
    // ... the previous state of each batch listing (whole: its group fields are compared with the
    // new ones), and the blocks around the group it was in.
    const previous = before ?? (await store.getMany(batch.map((listing) => listing.id)));
    const previousKeys = new Set<string>();
    for (const prior of previous.values()) {
      if (prior.dedup_key === null || prior.status !== 'active') continue;
      previousKeys.add(prior.dedup_key);
      const key = blockKeyOf(prior);
      // Every member of a group is within the price limit of every other: all in these blocks.
      if (key !== null) around(key);
    }

    // 2. Regroup each base around what changed (regroupEachBase), reading its blocks then: every block
    // a base's regrouping reads is of that base (neighbourKeys), so only the candidates of the bases of
    // one read are held at a time. Read for the whole batch first, they were held until its end, and
    // their number grows with the catalogue (a listing's block held 12 listings on average at 1M, 28 at
    // 2.5M): the indexer's peak RSS grew with the input (docs/benchmarks-history.md).
    /** The groups whose members' fields can change, of every base. */
    const changing: Regrouping<BlockCandidate>['groups'] = [];
    /** Members outside the batch whose group fields may change, read whole. */
    const others = new Map<string, StoredListing>();
    const unread = new Set<string>();
    const regroupings = this.regroupEachBase(store, keysByBase, (base, blocks) =>
      this.regroupLoaded(base, blocks, dirty, joining.get(base) ?? [], previous, previousKeys),
    );
    for await (const regrouping of regroupings) {
      this.formed += regrouping.minted;
      // A listing alone before (no key) and alone after keeps its fields: only the others are read whole.
      for (const group of regrouping.groups) {
        if (group.members.length === 1 && !dirty.has(group.members[0].id) && group.members[0].dedup_key === null) continue;
        changing.push(group);
        for (const member of group.members) {
          if (dirty.has(member.id) || others.has(member.id)) continue;
          if (member.listing) others.set(member.id, member.listing);
          else unread.add(member.id);
        }
      }
    }
    // Read in one go for the whole batch: a read per base was a round trip per base, most of a daily
    // load's time on Elasticsearch (a batch touches hundreds of bases).
    if (unread.size > 0) for (const [id, listing] of await store.getMany([...unread])) others.set(id, listing);
    const regrouped = regroupedFields(changing, (id) => dirty.get(id) ?? others.get(id)!, this.options.sites);

    // 3. The batch with its group fields, and the other members whose group fields changed, each
    // with the block the store holds it in now (for the block cache).
    const writes: { listing: StoredListing; before: string | null }[] = [];
    for (const listing of batch) {
      const fields = regrouped.get(listing.id) ?? ungroupedFields(listing);
      const prior = previous.get(listing.id);
      const next: StoredListing = { ...listing, ...fields };
      const alreadyNew = !prior || listing.change_seq !== prior.change_seq;
      if (!alreadyNew && publicGroupOutputDiffers(currentGroupFields(prior), fields)) touch(next, clock);
      writes.push({ listing: next, before: prior ? activeBlockKeyOf(prior) : null });
    }
    for (const [id, fields] of regrouped) {
      const stored = others.get(id);
      if (!stored || !groupFieldsDiffer(currentGroupFields(stored), fields)) continue;
      const next: StoredListing = { ...stored, ...fields };
      if (publicGroupOutputDiffers(currentGroupFields(stored), fields)) touch(next, clock);
      writes.push({ listing: next, before: activeBlockKeyOf(stored) });
    }
    this.cache.written(writes);
    return writes.map((write) => write.listing);
  }

  /**
   * Regroups each base of `keysByBase` (`regroup`), reading the blocks it needs: its own, then the
   * blocks around the members it reached, until it holds them all (the result is then exact). Where
   * one read fetches many blocks (Elasticsearch), the uncached blocks of several bases are read
   * together, up to READ_CHUNK, and a base that reached a block it does not hold waits for the next
   * read, with the next bases: a batch makes a few reads, not one per base and per round (hundreds:
   * most of a daily load's time). Elsewhere a read serves one base, which is regrouped to the end
   * before the next one. Yields the regroupings of the bases where something changed.
   */
  private async *regroupEachBase(
    store: ListingIndex,
    keysByBase: ReadonlyMap<string, Iterable<string>>,
    regroup: (base: string, blocks: LoadedBlocks) => RegroupAttempt | null,
  ): AsyncIterable<Regrouping<BlockCandidate>> {
    const readsTogether = readsManyBlocks(store);
    const fresh = keysByBase.entries();
    /** Bases waiting for more blocks: they go first into the next read. */
    let waiting: PendingBase[] = [];
    const next = (): PendingBase | undefined => {
      const pending = waiting.shift();
      if (pending) return pending;
      const entry = fresh.next();
      return entry.done ? undefined : { base: entry.value[0], keys: entry.value[1], blocks: new LoadedBlocks(store, this.cache) };
    };
    for (;;) {
      const bases: PendingBase[] = [];
      const toRead = new Set<string>();
      for (let pending = next(); pending; pending = next()) {
        const unread = [...pending.keys].filter((key) => !pending.blocks.has(key) && !toRead.has(key) && this.cache.get(key) === undefined);
        if (bases.length > 0 && (!readsTogether || toRead.size + unread.length > READ_CHUNK)) {
          waiting.unshift(pending);
          break;
        }
        bases.push(pending);
        for (const key of unread) toRead.add(key);
      }
      if (bases.length === 0) return;
      const read = readsTogether && toRead.size > 0 ? await readBlocks(store, [...toRead]) : undefined;
      const again: PendingBase[] = [];
      for (const pending of bases) {
        await pending.blocks.ensure(pending.keys, read);
        const attempt = regroup(pending.base, pending.blocks);
        if (attempt === null) continue;
        if ('missing' in attempt) again.push({ ...pending, keys: attempt.missing });
        else yield attempt.regrouping;
      }
      waiting = [...again, ...waiting];
    }
  }

  /**
   * The first build's grouping: every base regrouped from scratch (whole-base.ts), in this thread,
   * or, when asked (groupInWorker) and the store lends its file to a reader in another thread
   * (SQLite), in a worker thread (group-worker.ts) while this one writes.
   */
  async *finish(store: ListingIndex, clock: () => MergeClock): AsyncIterable<GroupWritePage> {
    if (!this.atEnd) return;
    this.atEnd = false;
    const minted = (groups: number) => {
      this.formed += groups;
    };
    const options = { sites: this.options.sites, threshold: this.options.threshold, keysPerPage: this.options.blockKeysPerPage, minted };
    const worker = this.options.groupInWorker === true ? store.capabilities.groupWorker : null;
    if (worker !== null) {
      this.groupedInWorker = true;
      yield* groupInWorker(worker.readerSource(), options, clock);
    } else {
      for await (const page of regroupEveryBase(store, { ...options, clock })) yield listingsPage(page);
    }
    // Reached once the caller has written the last page: the store is grouped.
    await store.setGroupingPending(false);
  }

  /**
   * Regroups one base around its seeds with the blocks it holds: the regrouping, when every listing
   * reached has all its candidates loaded (then it is exact), else the blocks missing. Null when
   * nothing in the base changed.
   */
  private regroupLoaded(
    base: string,
    blocks: LoadedBlocks,
    dirty: ReadonlyMap<string, StoredListing>,
    joining: readonly BlockCandidate[],
    previous: ReadonlyMap<string, StoredListing>,
    previousKeys: ReadonlySet<string>,
  ): RegroupAttempt | null {
    // The key a batch listing held counts only in the base it was in before.
    const previousKeyOf = (member: RegroupMember): string | null => {
      if (!dirty.has(member.id)) return member.dedup_key;
      const prior = previous.get(member.id);
      return prior && prior.status === 'active' && blockKeyOf(prior) !== null && baseOfKey(blockKeyOf(prior)!) === base ? prior.dedup_key : null;
    };
    const members = blocks.membersOf(base).filter((member) => !dirty.has(member.id));
    members.push(...joining);
    const seeds = new Set<string>();
    for (const member of members) {
      if (dirty.has(member.id) || (member.dedup_key !== null && previousKeys.has(member.dedup_key))) seeds.add(member.id);
    }
    if (seeds.size === 0) return null;
    const regrouping = clusterRegroup<BlockCandidate>(members, seeds, { threshold: this.options.threshold, previousKeyOf });
    const missing = new Set<string>();
    for (const group of regrouping.groups) {
      for (const member of group.members) for (const key of neighbourKeys(member.block_key)) if (!blocks.has(key)) missing.add(key);
    }
    return missing.size > 0 ? { missing } : { regrouping };
  }
}

function touch(listing: StoredListing, clock: MergeClock): void {
  listing.change_seq = clock.nextChangeSeq();
  listing.changed_at = clock.now;
}
