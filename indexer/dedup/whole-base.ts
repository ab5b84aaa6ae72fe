/**
 * Regrouping a whole base (transaction|type|postal code, every price bucket of it) from its
 * candidates, every member a seed: the pass that groups a first build once at its end (stage.ts) and
 * the rebuild (rebuild.ts). Clustering reads the candidates' features only; whole listings are read
 * for the members of the groups whose fields can change (a group of two or more, or a listing that
 * held a key), and only members whose group fields differ from the stored ones are handed back.
 */
import type { SiteCatalog } from '../../src/core/model/sites.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BlockCandidate, ListingIndex } from '../../src/core/ports/listing-index.js';
import type { MergeClock } from '../merge.js';
import { baseOfKey } from '../../src/core/dedup/block-key.js';
import { readBlocks, type BlockReader } from './blocks.js';
import { groupFieldsDiffer, publicGroupOutputDiffers, type GroupFields } from './group-output.js';
import { clusterRegroup, currentGroupFields, regroupedFields } from './regroup.js';

type BaseStore = BlockReader & Pick<ListingIndex, 'getMany'>;
/** What a pass over every base reads: the blocks, whole listings, and the block keys in order. */
export type EveryBaseStore = BaseStore & Pick<ListingIndex, 'blockKeysAfter'>;

/** Block keys read per page, and listings handed back per page, by a pass over every base. */
export const EVERY_BASE_PAGE = 1000;
/** Blocks read together by a pass over every base (one search on Elasticsearch), bounding what is held. */
const READ_AHEAD = 200;

/**
 * Every base of the store regrouped from scratch, in block-key order (the grouping at the end of a
 * first build): pages of about EVERY_BASE_PAGE listings whose group fields changed, written by the
 * caller between pages. The keys of one base are consecutive in key order, so a base is regrouped when
 * the next one starts; `clock()` numbers each base's feed changes; `minted` counts new group keys.
 */
export async function* regroupEveryBase(
  store: EveryBaseStore,
  options: { sites: SiteCatalog; threshold?: number; clock: () => MergeClock; keysPerPage?: number; minted: (groups: number) => void },
): AsyncGenerator<StoredListing[]> {
  const pending: StoredListing[] = [];
  // Blocks read ahead, READ_AHEAD keys of the page at a time, in one read where the store can.
  let ahead = new Map<string, BlockCandidate[]>();
  const regroup = async (keys: string[]) => {
    const members = keys.flatMap((key) => ahead.get(key) ?? []);
    const result = await regroupCandidates(store, members, { sites: options.sites, threshold: options.threshold, clock: options.clock() });
    options.minted(result.minted);
    pending.push(...result.writes);
  };
  const pageSize = options.keysPerPage ?? EVERY_BASE_PAGE;
  let keys: string[] = [];
  for (let after: string | null = null; ; ) {
    const page = await store.blockKeysAfter(after, pageSize);
    for (const [index, key] of page.entries()) {
      if (!ahead.has(key)) {
        // The blocks of the base being assembled stay; the ones of finished bases go.
        const kept = new Map(keys.map((k) => [k, ahead.get(k)!]));
        ahead = new Map([...kept, ...(await readBlocks(store, page.slice(index, index + READ_AHEAD)))]);
      }
      if (keys.length > 0 && baseOfKey(keys[0]) !== baseOfKey(key)) {
        await regroup(keys);
        keys = [];
        if (pending.length >= EVERY_BASE_PAGE) yield pending.splice(0);
      }
      keys.push(key);
    }
    if (page.length < pageSize) break;
    after = page[page.length - 1];
  }
  if (keys.length > 0) await regroup(keys);
  if (pending.length > 0) yield pending;
}

/** The active listings of the blocks `keys` (one base's), as candidates. */
export async function readBase(store: BaseStore, keys: Iterable<string>): Promise<BlockCandidate[]> {
  const ordered = [...keys];
  const blocks = await readBlocks(store, ordered);
  return ordered.flatMap((key) => blocks.get(key) ?? []);
}

export interface BaseRegrouping {
  /** The members whose group fields changed, with their new fields (and a new change_seq when their public output changed). */
  writes: StoredListing[];
  /** Groups that got a new key. */
  minted: number;
}

/** Regroups `members`, every active listing of one base, from scratch; keys are kept by keys.ts's rules. */
export async function regroupCandidates(
  store: BaseStore,
  members: readonly BlockCandidate[],
  options: { sites: SiteCatalog; threshold?: number; clock: MergeClock },
): Promise<BaseRegrouping> {
  const regrouping = clusterRegroup(members, new Set(members.map((m) => m.id)), { threshold: options.threshold, previousKeyOf: (m) => m.dedup_key });
  // A listing alone now and without a key before keeps its fields: it is not read.
  const changing = regrouping.groups.filter((group) => group.members.length > 1 || group.members[0].dedup_key !== null);
  const whole = new Map<string, StoredListing>();
  const unread: string[] = [];
  for (const group of changing) {
    for (const member of group.members) {
      if (member.listing) whole.set(member.id, member.listing);
      else unread.push(member.id);
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
