/**
 * Union-find (disjoint sets, path halving, union by size) over the listings of one block, with the
 * rule that a group holds at most one listing per site: a union that would put two listings of one
 * site together is refused. Two listings of one site are two properties (a site does not list the
 * same property twice), so when A (site s) matches B and B matches C (site s too), B can only belong
 * with one of them; the caller feeds unions strongest first, so B goes with the better match.
 */
export class SiteUnionFind {
  private readonly parent: Int32Array;
  private readonly size: Int32Array;
  /** Sites of each root's set. */
  private readonly sites: (Set<string> | undefined)[];

  constructor(sources: readonly string[]) {
    const n = sources.length;
    this.parent = new Int32Array(n);
    this.size = new Int32Array(n).fill(1);
    this.sites = new Array(n);
    for (let i = 0; i < n; i++) {
      this.parent[i] = i;
      this.sites[i] = new Set([sources[i]]);
    }
  }

  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]];
      i = this.parent[i];
    }
    return i;
  }

  /** Joins the sets of a and b; false when they are already one set or share a site (refused). */
  union(a: number, b: number): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    const sitesA = this.sites[ra]!;
    const sitesB = this.sites[rb]!;
    const [small, large] = sitesA.size <= sitesB.size ? [sitesA, sitesB] : [sitesB, sitesA];
    for (const site of small) if (large.has(site)) return false;
    if (this.size[ra] < this.size[rb]) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra] += this.size[rb];
    for (const site of this.sites[rb]!) this.sites[ra]!.add(site);
    this.sites[rb] = undefined;
    return true;
  }

  /** The sets, each as its member indices in ascending order, sets ordered by their first member. */
  groups(): number[][] {
    const byRoot = new Map<number, number[]>();
    for (let i = 0; i < this.parent.length; i++) {
      const root = this.find(i);
      let members = byRoot.get(root);
      if (!members) byRoot.set(root, (members = []));
      members.push(i);
    }
    return [...byRoot.values()];
  }
}
