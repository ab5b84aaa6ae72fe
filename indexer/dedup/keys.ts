/**
 * Stable `dedup_key`s for the groups a regrouping produced (docs/architecture.md: once a group has a key it
 * keeps it when members join or leave).
 *
 * Rules, all deterministic (a function of the listings' stored state), so a rebuild keeps every key:
 * - a listing alone has no key (null: no known duplicate);
 * - a group keeps a key its members had: when a group gains members it keeps its key;
 * - when a group splits, each old key goes to ONE part: the part holding most of its old members,
 *   on a tie the part holding its oldest member (earliest catalogue entry, then id);
 * - when groups merge, the merged group keeps the OLDER key: the key whose oldest holder entered
 *   the catalogue first (a key is minted for a group's oldest member, so this is the group that
 *   existed first); the other keys disappear;
 * - a group with no key to keep gets a new one: `d_` + a hash of its oldest member's id and of that
 *   member's change_seq before the regrouping. The id alone is not enough: a group keeps the key it
 *   was given from its oldest member after that member left, and the member may later found another
 *   group. change_seq values are never reused and a member that founds a group gets a new one, so
 *   the pair is never minted twice (and a key held in the block is never taken, whatever happens).
 */
import { createHash } from 'node:crypto';

export interface KeyHolder {
  id: string;
  /** The key this listing had before the regrouping (null: none). */
  previousKey: string | null;
  catalogueEnteredAt: number;
  /** Its change_seq before the regrouping (a new key is derived from the oldest member's id and this). */
  changeSeq: number;
}

/** Keys for `groups` (lists of holders), in the same order; `keysInUse` are keys other listings of the block still hold. */
export function assignKeys(groups: readonly (readonly KeyHolder[])[], keysInUse: ReadonlySet<string>): (string | null)[] {
  const claims = claimsByKey(groups);
  const taken = new Set(keysInUse);
  const keys = groups.map((group, g) => {
    if (group.length < 2) return null;
    let best: { key: string; oldest: KeyHolder } | null = null;
    for (const [key, claim] of claims) {
      if (claim.group !== g) continue;
      if (!best || older(claim.oldest, best.oldest)) best = { key, oldest: claim.oldest };
    }
    if (best) taken.add(best.key);
    return best?.key ?? null;
  });
  // New keys last, so a new key never takes a key an existing group keeps.
  return keys.map((key, g) => {
    if (key !== null || groups[g].length < 2) return key;
    const oldest = oldestOf(groups[g]);
    const fresh = mintKey(`${oldest.id}#${oldest.changeSeq}`, taken);
    taken.add(fresh);
    return fresh;
  });
}

/** For each previous key, the group that keeps it, and the key's oldest holder (its age). */
function claimsByKey(groups: readonly (readonly KeyHolder[])[]): Map<string, { group: number; oldest: KeyHolder }> {
  const holders = new Map<string, Map<number, KeyHolder[]>>();
  groups.forEach((group, g) => {
    if (group.length < 2) return;
    for (const holder of group) {
      if (holder.previousKey === null) continue;
      let byGroup = holders.get(holder.previousKey);
      if (!byGroup) holders.set(holder.previousKey, (byGroup = new Map()));
      byGroup.set(g, [...(byGroup.get(g) ?? []), holder]);
    }
  });
  const claims = new Map<string, { group: number; oldest: KeyHolder }>();
  for (const [key, byGroup] of holders) {
    let winner: { group: number; count: number; oldest: KeyHolder } | null = null;
    for (const [group, members] of byGroup) {
      const candidate = { group, count: members.length, oldest: oldestOf(members) };
      if (!winner || candidate.count > winner.count || (candidate.count === winner.count && older(candidate.oldest, winner.oldest))) winner = candidate;
    }
    claims.set(key, { group: winner!.group, oldest: winner!.oldest });
  }
  return claims;
}

function oldestOf(holders: readonly KeyHolder[]): KeyHolder {
  return holders.reduce((a, b) => (older(b, a) ? b : a));
}

function older(a: KeyHolder, b: KeyHolder): boolean {
  return a.catalogueEnteredAt !== b.catalogueEnteredAt ? a.catalogueEnteredAt < b.catalogueEnteredAt : a.id < b.id;
}

/** `d_` + 16 characters of a hash of `seed`; another hash when that key is still in use. */
export function mintKey(seed: string, taken: ReadonlySet<string> = new Set()): string {
  for (let attempt = 0; ; attempt++) {
    const key = `d_${createHash('sha1')
      .update(attempt === 0 ? seed : `${seed}~${attempt}`)
      .digest('base64url')
      .slice(0, 16)}`;
    if (!taken.has(key)) return key;
  }
}
