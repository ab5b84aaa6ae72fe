/**
 * Reading blocks for the grouping stage. A block is read as candidates (BlockCandidate: a listing's
 * scoring features and what the key rules read, not its document): a load reads the candidates of
 * every record, about 36 listings per record at 1M, and whole listings made that the larger part of
 * a load's time (the storedCandidates capability of ListingIndex: SQLite keeps the features in their own table).
 *
 * LoadedBlocks: the blocks one batch works on, each read once, and which keys of each base are
 * loaded, so a regrouping can tell whether every candidate of a listing is in memory (its bucket and
 * the two around it, src/core/dedup/block-key.ts) and read the missing ones.
 *
 * BlockCache: a bounded read-through cache of blocks across the batches of ONE load. Big blocks (the
 * flats of a city district) are read by almost every batch. The cache is a copy, not the state: the
 * state stays in the store, the cache holds at most `capacity` candidates whatever the catalogue size
 * (least recently used blocks are dropped), and it is updated with every listing the stage hands back
 * for writing, so it equals the store as long as the load is the store's only writer (which
 * incremental grouping assumes anyway). A stage instance serves one load, as the CLI uses it.
 */
import { baseOfKey, blockKeyOf } from '../../src/core/dedup/block-key.js';
import { featuresOf } from '../../src/core/dedup/features.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BlockCandidate, IndexCapabilities, ListingIndex } from '../../src/core/ports/listing-index.js';

/** A whole listing as a candidate (a batch listing, or a backend without stored candidates). */
export function candidateOf(listing: StoredListing): BlockCandidate {
  return {
    id: listing.id,
    dedup_key: listing.dedup_key,
    change_seq: listing.change_seq,
    catalogue_entered_at: listing.catalogue_entered_at,
    block_key: blockKeyOf(listing) ?? '',
    features: featuresOf(listing),
    listing,
  };
}

/** The block the store finds a listing in: findBlock and findBlockCandidates return active listings only. */
export function activeBlockKeyOf(listing: StoredListing): string | null {
  return listing.status === 'active' ? blockKeyOf(listing) : null;
}

export type BlockReader = Pick<ListingIndex, 'findBlock' | 'findBlocks'> & { readonly capabilities: Pick<IndexCapabilities, 'storedCandidates'> };

/** The candidates of one block, from the store's stored features when it keeps them. */
export async function readBlock(store: BlockReader, key: string): Promise<BlockCandidate[]> {
  const stored = store.capabilities.storedCandidates;
  if (stored) return stored.findBlockCandidates(key);
  return (await store.findBlock(key)).map(candidateOf);
}

/**
 * Whether one read of the store fetches many blocks (a round trip per read: Elasticsearch), with or
 * without stored candidates: the stage then reads a batch's uncached blocks together.
 */
export function readsManyBlocks(store: BlockReader): boolean {
  const stored = store.capabilities.storedCandidates;
  return !stored || stored.findBlocksCandidates !== undefined;
}

/** The candidates of several blocks: in one read where the store reads many (stored candidates, or whole listings: findBlocks). */
export async function readBlocks(store: BlockReader, keys: readonly string[]): Promise<Map<string, BlockCandidate[]>> {
  const read = new Map<string, BlockCandidate[]>();
  const stored = store.capabilities.storedCandidates;
  if (keys.length > 1 && stored?.findBlocksCandidates) return stored.findBlocksCandidates([...keys]);
  if (keys.length > 1 && !stored) {
    for (const [key, listings] of await store.findBlocks([...keys])) read.set(key, listings.map(candidateOf));
    return read;
  }
  for (const key of keys) read.set(key, await readBlock(store, key));
  return read;
}

export class LoadedBlocks {
  private readonly byKey = new Map<string, BlockCandidate[]>();
  private readonly keysByBase = new Map<string, string[]>();

  constructor(
    private readonly store: BlockReader,
    private readonly cache: BlockCache | null = null,
  ) {}

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /**
   * Loads the blocks not loaded yet: from `readTogether` (blocks the caller read with other bases'),
   * the cache, then the store (the rest in one read); true when at least one was loaded.
   */
  async ensure(keys: Iterable<string>, readTogether?: ReadonlyMap<string, BlockCandidate[]>): Promise<boolean> {
    const wanted = [...new Set(keys)].filter((key) => !this.byKey.has(key));
    const unread = wanted.filter((key) => !readTogether?.has(key) && this.cache?.get(key) === undefined);
    const read = unread.length ? await readBlocks(this.store, unread) : new Map<string, BlockCandidate[]>();
    for (const key of wanted) {
      let members = readTogether?.get(key) ?? read.get(key);
      if (members !== undefined) this.cache?.put(key, members);
      else members = this.cache!.get(key)!;
      this.byKey.set(key, members);
      const base = baseOfKey(key);
      const keys = this.keysByBase.get(base);
      if (keys) keys.push(key);
      else this.keysByBase.set(base, [key]);
    }
    return wanted.length > 0;
  }

  /** Candidates of the loaded blocks of one base. */
  membersOf(base: string): BlockCandidate[] {
    return (this.keysByBase.get(base) ?? []).flatMap((key) => this.byKey.get(key)!);
  }
}

export class BlockCache {
  /**
   * Blocks in least- to most-recently used order (a Map keeps insertion order). No index of the
   * cached listings: written() is told which block each listing was in. A map of every cached
   * listing to its block, kept up to date as big blocks came and went, cost more than it saved.
   */
  private readonly blocks = new Map<string, BlockCandidate[]>();
  private held = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.held;
  }

  /** The cached blocks and their candidates (for tests and diagnostics). */
  cached(): IterableIterator<[string, readonly BlockCandidate[]]> {
    return this.blocks.entries();
  }

  clear(): void {
    this.blocks.clear();
    this.held = 0;
  }

  get(key: string): BlockCandidate[] | undefined {
    const members = this.blocks.get(key);
    if (members !== undefined) {
      this.blocks.delete(key);
      this.blocks.set(key, members);
    }
    return members;
  }

  put(key: string, members: BlockCandidate[]): void {
    if (this.capacity <= 0 || members.length > this.capacity) return;
    this.drop(key);
    this.blocks.set(key, members);
    this.held += members.length;
    this.trim();
  }

  /**
   * What the stage hands back for writing, each listing with the block the store holds it in before
   * the write (`before`, null when in none): cached blocks become what the store holds after it.
   * Called at the end of a batch, when no one reads the arrays any more, so they are changed in place.
   */
  written(writes: readonly { listing: StoredListing; before: string | null }[]): void {
    for (const { listing, before } of writes) {
      if (before !== null) this.remove(before, listing.id);
      // A block not cached stays not cached (never partial).
      const key = activeBlockKeyOf(listing);
      if (key === null) continue;
      const members = this.blocks.get(key);
      if (members === undefined) continue;
      // Without the whole listing, and features as plain values (the lazy ones hold on to the
      // listing's content): the cache holds candidates, roughly a kilobyte each (estimated: the
      // shingles, 4 bytes per word pair of the description, are most of it).
      const { listing: _whole, features, ...candidate } = candidateOf(listing);
      members.push({ ...candidate, features: { ...features } });
      this.held++;
    }
    this.trim();
  }

  /** Takes a listing out of its block if that block is cached; its last member takes the place (a block's order does not matter: the regrouping sorts by id). */
  private remove(key: string, id: string): void {
    const members = this.blocks.get(key);
    if (members === undefined) return;
    const at = members.findIndex((member) => member.id === id);
    if (at < 0) return;
    const last = members.pop()!;
    if (at < members.length) members[at] = last;
    this.held--;
  }

  private trim(): void {
    for (const oldest of this.blocks.keys()) {
      if (this.held <= this.capacity) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const members = this.blocks.get(key);
    if (members === undefined) return;
    this.held -= members.length;
    this.blocks.delete(key);
  }
}
