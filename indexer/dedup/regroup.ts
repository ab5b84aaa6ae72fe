/**
 * Regrouping of one block, shared by the load stage (stage.ts) and the rebuild (rebuild.ts):
 * cluster the parts of the block reachable from the seeds, give each group its stable key, and
 * compute every regrouped member's group fields from the members' OWN content.
 */
import type { SiteCatalog } from '../../src/listings/sites.js';
import type { StoredListing } from '../../src/listings/stored.js';
import { clusterAround } from './cluster.js';
import { featuresOf } from './features.js';
import { groupFields, rankMembers, type GroupFields } from './group-output.js';
import { assignKeys, type KeyHolder } from './keys.js';
import { withOwnContent } from './own-content.js';
import { MATCH_THRESHOLD } from './score.js';

export interface RegroupOptions {
  sites: SiteCatalog;
  /** The key a member held in this block before the regrouping (null when it was not grouped here). */
  previousKeyOf(member: StoredListing): string | null;
  threshold?: number;
}

export interface RegroupResult {
  /** New group fields of every regrouped member (the seeds and every listing reachable from them), by id. */
  fields: Map<string, GroupFields>;
  /** Groups that got a new key. */
  minted: number;
}

/**
 * `members`: active listings of one block base as they are now (at least every candidate of every
 * listing reachable from the seeds: the caller checks with `fields` and reads more blocks if not);
 * `seedIds`: the members whose group may have changed.
 */
export function regroupBlock(members: readonly StoredListing[], seedIds: ReadonlySet<string>, options: RegroupOptions): RegroupResult {
  const sorted = [...members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seeds: number[] = [];
  sorted.forEach((m, i) => { if (seedIds.has(m.id)) seeds.push(i); });
  const fields = new Map<string, GroupFields>();
  if (seeds.length === 0) return { fields, minted: 0 };

  const { groups } = clusterAround(sorted.map(featuresOf), seeds, options.threshold ?? MATCH_THRESHOLD);
  const regrouped = new Set(groups.flat());
  const keysInUse = new Set<string>();
  sorted.forEach((m, i) => {
    const key = options.previousKeyOf(m);
    if (key !== null && !regrouped.has(i)) keysInUse.add(key);
  });
  const holders = groups.map((group) => group.map((i): KeyHolder => ({
    id: sorted[i].id, previousKey: options.previousKeyOf(sorted[i]), catalogueEnteredAt: sorted[i].catalogue_entered_at,
    changeSeq: sorted[i].change_seq,
  })));
  const keys = assignKeys(holders, keysInUse);
  let minted = 0;
  groups.forEach((group, g) => {
    const key = keys[g];
    if (key !== null && !holders[g].some((h) => h.previousKey === key)) minted++;
    const ranked = rankMembers(group.map((i) => withOwnContent(sorted[i])), options.sites);
    groupFields(ranked, key).forEach((f, rank) => fields.set(ranked[rank].id, f));
  });
  return { fields, minted };
}

/** The group fields a listing has now (to compare with the regrouped ones). */
export function currentGroupFields(listing: StoredListing): GroupFields {
  return {
    content: listing.content, completed_from: listing.completed_from, has_photos: listing.has_photos,
    dedup_key: listing.dedup_key, group_sites_ahead: listing.group_sites_ahead, group_members: listing.group_members,
  };
}
