/**
 * Regrouping of one block, shared by the load stage (stage.ts) and the regrouping of whole bases
 * (whole-base.ts), in two steps so that whole listings are needed only for the groups that change:
 * 1. clusterRegroup: cluster the parts of the block reachable from the seeds (from the members'
 *    features alone) and give each group its stable key;
 * 2. regroupedFields: the group fields of the members of some of those groups, computed from the
 *    members' OWN content (whole listings).
 */
import type { SiteCatalog } from '../../src/core/model/sites.js';
import { firstSeenOf, type StoredListing } from '../../src/core/model/stored.js';
import type { BlockCandidate } from '../../src/core/ports/listing-index.js';
import { clusterAround } from './cluster.js';
import { groupFields, rankMembers, type GroupFields } from './group-output.js';
import { assignKeys, type KeyHolder } from './keys.js';
import { withOwnContent } from './own-content.js';
import { MATCH_THRESHOLD } from './score.js';

/** What clustering and the key rules read of a member (a BlockCandidate, or one made of a whole listing). */
export type RegroupMember = Pick<BlockCandidate, 'id' | 'dedup_key' | 'change_seq' | 'catalogue_entered_at' | 'features'>;

export interface RegroupOptions<M extends RegroupMember = RegroupMember> {
  /** The key a member held in this block before the regrouping (null when it was not grouped here). */
  previousKeyOf(member: M): string | null;
  threshold?: number;
}

export interface Regrouping<M extends RegroupMember = RegroupMember> {
  /** Every regrouped member (the seeds and every listing reachable from them) by group, ids ascending, with the group's key. */
  groups: { members: M[]; key: string | null }[];
  /** Groups that got a new key. */
  minted: number;
}

/**
 * `members`: active listings of one block base as they are now (at least every candidate of every
 * listing reachable from the seeds: the caller checks the regrouped members' blocks and reads more
 * if some are missing); `seedIds`: the members whose group may have changed.
 */
export function clusterRegroup<M extends RegroupMember>(members: readonly M[], seedIds: ReadonlySet<string>, options: RegroupOptions<M>): Regrouping<M> {
  const sorted = [...members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seeds: number[] = [];
  sorted.forEach((m, i) => {
    if (seedIds.has(m.id)) seeds.push(i);
  });
  if (seeds.length === 0) return { groups: [], minted: 0 };

  const { groups } = clusterAround(
    sorted.map((m) => m.features),
    seeds,
    options.threshold ?? MATCH_THRESHOLD,
  );
  const regrouped = new Set(groups.flat());
  const keysInUse = new Set<string>();
  sorted.forEach((m, i) => {
    const key = options.previousKeyOf(m);
    if (key !== null && !regrouped.has(i)) keysInUse.add(key);
  });
  const holders = groups.map((group) =>
    group.map(
      (i): KeyHolder => ({
        id: sorted[i].id,
        previousKey: options.previousKeyOf(sorted[i]),
        catalogueEnteredAt: sorted[i].catalogue_entered_at,
        changeSeq: sorted[i].change_seq,
      }),
    ),
  );
  const keys = assignKeys(holders, keysInUse);
  let minted = 0;
  keys.forEach((key, g) => {
    if (key !== null && !holders[g].some((h) => h.previousKey === key)) minted++;
  });
  return { groups: groups.map((group, g) => ({ members: group.map((i) => sorted[i]), key: keys[g] })), minted };
}

/** Group fields of every member of `groups`, by id; `wholeOf` gives each member's whole listing as stored (or as loaded). */
export function regroupedFields(groups: Regrouping['groups'], wholeOf: (id: string) => StoredListing, sites: SiteCatalog): Map<string, GroupFields> {
  const fields = new Map<string, GroupFields>();
  for (const group of groups) {
    const ranked = rankMembers(
      group.members.map((m) => withOwnContent(wholeOf(m.id))),
      sites,
    );
    groupFields(ranked, group.key).forEach((f, rank) => fields.set(ranked[rank].id, f));
  }
  return fields;
}

/** The group fields a listing has now (to compare with the regrouped ones). */
export function currentGroupFields(listing: StoredListing): GroupFields {
  return {
    content: listing.content,
    completed_from: listing.completed_from,
    has_photos: listing.has_photos,
    dedup_key: listing.dedup_key,
    group_sites_ahead: listing.group_sites_ahead,
    group_members: listing.group_members,
    first_seen_at: firstSeenOf(listing),
  };
}
