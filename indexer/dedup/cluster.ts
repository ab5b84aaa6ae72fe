/**
 * Groups listings of one block base (transaction|type|postal code, any number of its price buckets):
 * candidate pairs -> scores -> union-find, strongest pairs first.
 *
 * Why the result is the same whether a base is grouped at once (rebuild) or piece by piece (loads):
 * - members are sorted by id and equal scores are joined in id order, so nothing depends on the
 *   order listings were loaded in;
 * - union-find only ever joins listings along a matching pair, and a refusal only looks at the two
 *   sets being joined, so the groups of one connected part of the "matching pairs" graph depend on
 *   that part alone. A load therefore regroups only the parts reachable from the listings it changed
 *   (`seeds`) and leaves every other group of the base exactly as a rebuild would make it.
 *
 * Candidates: listings sorted by surface, each is compared with the ones whose surface is within the
 * limit, and with every listing without a surface; a block of thousands of flats costs a few
 * comparisons per listing.
 */
import type { Features } from '../../src/core/dedup/features.js';
import { agreesOnSharedValues, MATCH_THRESHOLD, scorePair, surfacesClose, withinLimits } from './score.js';
import { ConstrainedUnionFind } from './union-find.js';

export interface Edge {
  a: number;
  b: number;
  score: number;
}

export interface Clustering {
  /** Groups (indices into `members`, ascending) covering exactly the listings reachable from the seeds. */
  groups: number[][];
  /** Matching pairs found (a < b), for tests and diagnostics. */
  edges: Edge[];
}

/**
 * Groups the parts of the block reachable from `seeds` through matching pairs.
 * `members` must be sorted by id; pass every index as seeds to group the whole block.
 */
export function clusterAround(members: readonly Features[], seeds: Iterable<number>, threshold = MATCH_THRESHOLD): Clustering {
  const candidates = new CandidateIndex(members);
  const visited = new Uint8Array(members.length);
  const expanded = new Uint8Array(members.length);
  const queue: number[] = [];
  for (const seed of seeds)
    if (!visited[seed]) {
      visited[seed] = 1;
      queue.push(seed);
    }
  const edges: Edge[] = [];
  while (queue.length > 0) {
    const i = queue.pop()!;
    expanded[i] = 1;
    candidates.forEach(i, (j) => {
      // A pair is scored once: from whichever end is expanded first.
      if (expanded[j]) return;
      const score = scorePair(members[i], members[j]);
      if (score < threshold) return;
      edges.push(i < j ? { a: i, b: j, score } : { a: j, b: i, score });
      if (!visited[j]) {
        visited[j] = 1;
        queue.push(j);
      }
    });
  }
  const kept = withoutAmbiguousWeakEdges(members, edges);
  // Strongest first; among equal scores the closer values first (a surface 51.78 m² is 52 on one
  // site before it is 51 on another), then id order (members are sorted by id).
  const gap = (edge: Edge) => closeness(members[edge.a], members[edge.b]);
  kept.sort((x, y) => y.score - x.score || gap(x) - gap(y) || x.a - y.a || x.b - y.b);
  const unionFind = new ConstrainedUnionFind(members.length, (i, j) => withinLimits(members[i], members[j]));
  // A weak match joins two sets only when every pair across them matches too (complete linkage): a
  // chain of matches on a few common values (a studio at the usual rent, a price 2 % off) must not
  // gather several properties. A pair that scores low only because one side carries little (a sparse
  // copy: a price, no surface) agrees on every value both carry, the price to the euro included, and
  // does not stop a copy that matches the others.
  const allMatch = (i: number, j: number) => scorePair(members[i], members[j]) >= threshold || agreesOnSharedValues(members[i], members[j]);
  for (const edge of kept) unionFind.union(edge.a, edge.b, edge.score < WEAK_MATCH_BELOW ? allMatch : undefined);
  return { groups: unionFind.groups().filter((group) => visited[group[0]]), edges: kept };
}

/**
 * Below this score a match rests on a few values (a price, a surface, the rooms): enough when the
 * pair is the only one of its kind, not when two listings of one site fit equally well.
 */
export const WEAK_MATCH_BELOW = MATCH_THRESHOLD + 1;

/**
 * Drops the weak matches of a listing with a site on which it weakly matches several listings: the
 * same price, rooms and surface on two listings of one site say that the values are common in the
 * block (a building of identical flats, the usual rent of a studio), not which of them is the copy.
 * A listing of that site already strongly matched with another listing of the first one's site is
 * no alternative (two flats at one price, each with its agency's copies: the copy of the second
 * agency has one candidate left). Strong matches are kept: the strongest is joined first, and the
 * others are refused then (a group holds one listing per site). Depends only on the edges of one
 * connected part, so a load and a rebuild still agree.
 */
function withoutAmbiguousWeakEdges(members: readonly Features[], edges: readonly Edge[]): Edge[] {
  // A listing strongly matched with a listing of site S is taken for S (the strong match joins first,
  // and a group holds one listing per site): it is no alternative for another listing of S.
  const taken = new Set<string>();
  for (const edge of edges)
    if (edge.score >= WEAK_MATCH_BELOW) {
      taken.add(`${edge.a}|${members[edge.b].source}`);
      taken.add(`${edge.b}|${members[edge.a].source}`);
    }
  const isTaken = (i: number, j: number) => taken.has(`${j}|${members[i].source}`);
  const weakPartners = new Map<string, number>();
  const count = (i: number, j: number) => {
    if (isTaken(i, j)) return;
    const key = `${i}|${members[j].source}`;
    weakPartners.set(key, (weakPartners.get(key) ?? 0) + 1);
  };
  for (const edge of edges)
    if (edge.score < WEAK_MATCH_BELOW) {
      count(edge.a, edge.b);
      count(edge.b, edge.a);
    }
  const unique = (i: number, j: number) => isTaken(i, j) || weakPartners.get(`${i}|${members[j].source}`) === 1;
  return edges.filter((edge) => edge.score >= WEAK_MATCH_BELOW || (unique(edge.a, edge.b) && unique(edge.b, edge.a)));
}

/**
 * How far apart two matching listings' surface and price are (0: equal or not both given): what
 * tells two matches of one score apart, the surface first (m²), the price second (its relative gap
 * is under 0.1, well under the surface gaps that differ).
 */
function closeness(a: Features, b: Features): number {
  const surface = a.surface !== null && b.surface !== null ? Math.abs(a.surface - b.surface) : 0;
  const price = a.price !== null && b.price !== null ? Math.abs(a.price - b.price) / Math.max(a.price, b.price) : 0;
  return surface + price;
}

/** Groups of a whole block (every listing, singletons included). */
export function clusterBlock(members: readonly Features[], threshold = MATCH_THRESHOLD): number[][] {
  return clusterAround(members, members.keys(), threshold).groups;
}

/** The listings a listing must be compared with: surface within the limit, or no surface on either side. */
class CandidateIndex {
  /** Indices of the listings with a surface, by ascending surface. */
  private readonly bySurface: number[] = [];
  /** Position of each listing in bySurface (-1 without a surface). */
  private readonly position: Int32Array;
  private readonly withoutSurface: number[] = [];

  constructor(private readonly members: readonly Features[]) {
    this.position = new Int32Array(members.length).fill(-1);
    members.forEach((m, i) => (m.surface === null ? this.withoutSurface : this.bySurface).push(i));
    this.bySurface.sort((i, j) => members[i].surface! - members[j].surface! || i - j);
    this.bySurface.forEach((i, at) => {
      this.position[i] = at;
    });
  }

  forEach(i: number, visit: (j: number) => void): void {
    const at = this.position[i];
    if (at < 0) {
      for (let j = 0; j < this.members.length; j++) if (j !== i) visit(j);
      return;
    }
    const surface = this.members[i].surface!;
    // The surface gap only grows away from `at`, so each scan stops at the first listing out of reach.
    for (let k = at - 1; k >= 0 && surfacesClose(surface, this.members[this.bySurface[k]].surface!); k--) visit(this.bySurface[k]);
    for (let k = at + 1; k < this.bySurface.length && surfacesClose(surface, this.members[this.bySurface[k]].surface!); k++) visit(this.bySurface[k]);
    for (const j of this.withoutSurface) visit(j);
  }
}
