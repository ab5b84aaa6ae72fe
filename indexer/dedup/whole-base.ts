/**
 * Regrouping a whole base (transaction|type|postal code, every price bucket of it) from its
 * candidates, every member a seed: the pass that groups a first build once at its end (stage.ts) and
 * the rebuild (rebuild.ts). Clustering reads the candidates' features only; whole listings are read
 * for the members of the groups whose fields can change (a group of two or more, or a listing that
 * held a key), and only members whose group fields differ from the stored ones are handed back.
 */
import type { SiteCatalog } from '../../src/listings/sites.js';
import type { StoredListing } from '../../src/listings/stored.js';
import type { BlockCandidate, ListingStore } from '../../src/stores/listing-store.js';
import type { MergeClock } from '../merge.js';
import { readBlock } from './blocks.js';
import { groupFieldsDiffer, publicGroupOutputDiffers, type GroupFields } from './group-output.js';
import { clusterRegroup, currentGroupFields, regroupedFields } from './regroup.js';

type BaseStore = Pick<ListingStore, 'findBlock' | 'findBlockCandidates' | 'getMany'>;

/** The active listings of the blocks `keys` (one base's), as candidates. */
export async function readBase(store: BaseStore, keys: Iterable<string>): Promise<BlockCandidate[]> {
  const members: BlockCandidate[] = [];
  for (const key of keys) members.push(...(await readBlock(store, key)));
  return members;
}

export interface BaseRegrouping {
  /** The members whose group fields changed, with their new fields (and a new change_seq when their public output changed). */
  writes: StoredListing[];
  /** Groups that got a new key. */
  minted: number;
}

/** Regroups `members`, every active listing of one base, from scratch; keys are kept by keys.ts's rules. */
export async function regroupCandidates(
  store: BaseStore, members: readonly BlockCandidate[], options: { sites: SiteCatalog; threshold?: number; clock: MergeClock },
): Promise<BaseRegrouping> {
  const regrouping = clusterRegroup(members, new Set(members.map((m) => m.id)), { threshold: options.threshold, previousKeyOf: (m) => m.dedup_key });
  // A listing alone now and without a key before keeps its fields: it is not read.
  const changing = regrouping.groups.filter((group) => group.members.length > 1 || group.members[0].dedup_key !== null);
  const whole = new Map<string, StoredListing>();
  const unread: string[] = [];
  for (const group of changing) {
    for (const member of group.members) {
      if (member.listing) whole.set(member.id, member.listing); else unread.push(member.id);
    }
  }
  if (unread.length > 0) for (const [id, listing] of await store.getMany(unread)) whole.set(id, listing);
  const writes: StoredListing[] = [];
  for (const [id, fields] of regroupedFields(changing, (id) => whole.get(id)!, options.sites)) {
    const next = withGroupFields(whole.get(id)!, fields, options.clock);
    if (next) writes.push(next);
  }
  return { writes, minted: regrouping.minted };
}

/**
 * The listing with new group fields, or null when they equal its stored ones (nothing to write). Its
 * public output changed: a new change_seq and changed_at, so the feed delivers it again.
 */
export function withGroupFields(stored: StoredListing, fields: GroupFields, clock: MergeClock): StoredListing | null {
  const before = currentGroupFields(stored);
  if (!groupFieldsDiffer(before, fields)) return null;
  const next: StoredListing = { ...stored, ...fields };
  if (publicGroupOutputDiffers(before, fields)) {
    next.change_seq = clock.nextChangeSeq();
    next.changed_at = clock.now;
  }
  return next;
}
