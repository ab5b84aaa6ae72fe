/**
 * Union-find (disjoint sets, path halving, union by size) with a veto on every union: two sets are
 * joined only when EVERY pair across them may belong together (`canPair`). Deduplication uses it
 * with canPair = "other site and within the hard limits" (score.ts withinLimits), so:
 * - a group holds at most one listing per site: a union that would put two listings of one site
 *   together is refused (a site does not list one property twice);
 * - a chain A~B~C joins C to A's group only if A and C are compatible too, so small differences
 *   cannot add up along a chain (a price drifting 6 % per link) to group two different properties.
 * The caller feeds unions strongest first, so a listing that could go two ways goes with its best match.
 * Groups are small (at most one member per site), so checking every cross pair is cheap.
 */
export class ConstrainedUnionFind {
  private readonly parent: Int32Array;
  /** Members of each root's set (undefined for non-roots). */
  private readonly members: (number[] | undefined)[];

  constructor(
    size: number,
    private readonly canPair: (a: number, b: number) => boolean,
  ) {
    this.parent = new Int32Array(size);
    this.members = new Array(size);
    for (let i = 0; i < size; i++) {
      this.parent[i] = i;
      this.members[i] = [i];
    }
  }

  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]];
      i = this.parent[i];
    }
    return i;
  }

  /**
   * Joins the sets of a and b; false when they already are one set or when the union is refused.
   * `canPair` replaces the constructor's veto for this union (a stricter one for a weak match).
   */
  union(a: number, b: number, canPair = this.canPair): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    for (const x of this.members[ra]!) for (const y of this.members[rb]!) if (!canPair(x, y)) return false;
    if (this.members[ra]!.length < this.members[rb]!.length) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.members[ra]!.push(...this.members[rb]!);
    this.members[rb] = undefined;
    return true;
  }

  /** The sets, each with its members in ascending order, ordered by their smallest member. */
  groups(): number[][] {
    const groups: number[][] = [];
    for (let i = 0; i < this.parent.length; i++) {
      if (this.parent[i] === i) groups.push([...this.members[i]!].sort((x, y) => x - y));
    }
    return groups.sort((x, y) => x[0] - y[0]);
  }
}
