/**
 * Reading blocks for the grouping stage.
 *
 * LoadedBlocks: the blocks one batch (or one rebuild step) works on, each read once, and which keys
 * of each base are loaded, so a regrouping can tell whether every candidate of a listing is in memory
 * (its bucket and the two around it, src/listings/block-key.ts) and read the missing ones.
 *
 * BlockCache: a bounded read-through cache of blocks across the batches of ONE load. Big blocks (the
 * flats of a city district) are read by almost every batch, and reading a listing from the store costs
 * more than everything the stage does with it. The cache is a copy, not the state: the state stays in
 * the store, the cache holds at most `capacity` listings whatever the catalogue size (least recently
 * used blocks are dropped), and it is updated with every listing the stage hands back for writing,
 * so it equals the store as long as the load is the store's only writer (which incremental grouping
 * assumes anyway). A stage instance serves one load, as the CLI uses it.
 */
import { baseOfKey, blockKeyOf } from '../../src/listings/block-key.js';
import type { StoredListing } from '../../src/listings/stored.js';
import type { ListingStore } from '../../src/stores/listing-store.js';

export class LoadedBlocks {
  private readonly byKey = new Map<string, StoredListing[]>();
  private readonly keysByBase = new Map<string, string[]>();

  constructor(private readonly store: Pick<ListingStore, 'findBlock'>, private readonly cache: BlockCache | null = null) {}

  has(key: string): boolean { return this.byKey.has(key); }

  /** Reads the blocks not read yet; true when at least one was. */
  async ensure(keys: Iterable<string>): Promise<boolean> {
    let read = false;
    for (const key of keys) {
      if (this.byKey.has(key)) continue;
      let members = this.cache?.get(key);
      if (members === undefined) {
        members = await this.store.findBlock(key);
        this.cache?.put(key, members);
      }
      this.byKey.set(key, members);
      const base = baseOfKey(key);
      const keys = this.keysByBase.get(base);
      if (keys) keys.push(key); else this.keysByBase.set(base, [key]);
      read = true;
    }
    return read;
  }

  get bases(): string[] { return [...this.keysByBase.keys()]; }

  /** Stored listings of the loaded blocks of one base. */
  membersOf(base: string): StoredListing[] {
    return (this.keysByBase.get(base) ?? []).flatMap((key) => this.byKey.get(key)!);
  }

  *all(): Iterable<StoredListing> {
    for (const members of this.byKey.values()) yield* members;
  }
}

export class BlockCache {
  /** Blocks in least- to most-recently used order (a Map keeps insertion order). */
  private readonly blocks = new Map<string, StoredListing[]>();
  /** Cached block of each cached listing. */
  private readonly blockOf = new Map<string, string>();
  private held = 0;

  constructor(readonly capacity: number) {}

  get size(): number { return this.held; }

  clear(): void {
    this.blocks.clear();
    this.blockOf.clear();
    this.held = 0;
  }

  get(key: string): StoredListing[] | undefined {
    const members = this.blocks.get(key);
    if (members !== undefined) {
      this.blocks.delete(key);
      this.blocks.set(key, members);
    }
    return members;
  }

  put(key: string, members: StoredListing[]): void {
    if (this.capacity <= 0 || members.length > this.capacity) return;
    this.drop(key);
    this.blocks.set(key, members);
    for (const member of members) this.blockOf.set(member.id, key);
    this.held += members.length;
    this.trim();
  }

  /**
   * What the stage hands back for writing: cached blocks become what the store holds after the write.
   * Called at the end of a batch, when no one reads the arrays any more, so they are changed in place.
   */
  written(listings: readonly StoredListing[]): void {
    for (const listing of listings) {
      const before = this.blockOf.get(listing.id);
      if (before !== undefined) {
        const members = this.blocks.get(before)!;
        members.splice(members.findIndex((member) => member.id === listing.id), 1);
        this.blockOf.delete(listing.id);
        this.held--;
      }
      // findBlock returns active listings only; a block not cached stays not cached (never partial).
      const key = listing.status === 'active' ? blockKeyOf(listing) : null;
      if (key === null) continue;
      const members = this.blocks.get(key);
      if (members === undefined) continue;
      members.push(listing);
      this.blockOf.set(listing.id, key);
      this.held++;
    }
    this.trim();
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
    for (const member of members) this.blockOf.delete(member.id);
    this.held -= members.length;
    this.blocks.delete(key);
  }
}
