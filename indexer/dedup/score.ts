/**
 * Pairwise duplicate score of two listings of one block (docs/deduplication.md).
 *
 * Two steps:
 * 1. Hard limits, where copies of one property never differ: another site (two listings of one site
 *    are two properties), surface within 3 % (1 m² for small surfaces, which sites round to whole
 *    metres), same number of rooms when both give it, price within 10 % (copies differ by fees
 *    included or not and price cuts not yet published everywhere: up to about 8 %), a price on
 *    both sides or on neither, and the same floor when both descriptions state one. A pair outside
 *    any limit is not a candidate (score -Infinity).
 * 2. Evidence, added up like log-odds: what copies share (their text, the energy figures, the agency,
 *    the exact price and surface, the building year, the land) adds points, and what two copies of one
 *    property would not disagree on removes them. A value missing on either side is no evidence.
 *
 * Neighbouring flats of one building (same type, surface and coordinates, other floor) are the hard
 * case: their prices usually differ by more than the limit; when they do not, the floors stated in
 * their descriptions differ (a hard limit), and the energy figures and texts remove points, while the
 * coordinates they share give almost nothing.
 */
import type { Features } from '../../src/core/dedup/features.js';
import { containment } from '../../src/core/dedup/shingles.js';

/** A pair at or above this score is a duplicate (union-find joins it). */
export const MATCH_THRESHOLD = 2.5;

export const LIMITS = {
  surfaceRatio: 0.03,
  /** Whole-metre rounding of small surfaces (a 14.5 m² studio shown as 14 m² is 3.4 % off). */
  surfaceAbsolute: 1,
  priceRatio: 0.1,
} as const;

export interface ScoreDetail {
  score: number;
  /** Points per criterion, for tests and for tuning. */
  parts: Record<string, number>;
}

/** Score of a pair; -Infinity when a hard limit rules it out. */
export function scorePair(a: Features, b: Features): number {
  return scoreDetail(a, b).score;
}

/** The hard limits: whether the pair is a candidate at all (numbers first; the floor is read from the text once per listing). */
export function withinLimits(a: Features, b: Features): boolean {
  if (a.source === b.source) return false;
  if (a.rooms !== null && b.rooms !== null && a.rooms !== b.rooms) return false;
  if (a.surface !== null && b.surface !== null && !surfacesClose(a.surface, b.surface)) return false;
  // A price on one side only is not comparable: blocking (src/core/dedup/block-key.ts) never makes such a
  // pair meet, and the limits must say the same, so that no chain of matches joins them either.
  if ((a.price === null) !== (b.price === null)) return false;
  if (a.price !== null && b.price !== null && relativeGap(a.price, b.price) > LIMITS.priceRatio) return false;
  // Two descriptions stating two floors are two flats (a neighbour in the same building).
  if (floorsComparable(a, b) && a.floor !== b.floor) return false;
  return true;
}

/** "last floor" and a number may be the same floor: only two numbers, or two "last", compare. */
export function floorsComparable(a: Features, b: Features): boolean {
  return a.floor !== null && b.floor !== null && (a.floor === 'last') === (b.floor === 'last');
}

export function surfacesClose(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(LIMITS.surfaceRatio * Math.max(a, b), LIMITS.surfaceAbsolute);
}

export function scoreDetail(a: Features, b: Features): ScoreDetail {
  if (!withinLimits(a, b)) return { score: -Infinity, parts: {} };
  const parts: Record<string, number> = {};
  const add = (name: string, points: number) => {
    if (points !== 0) parts[name] = points;
  };

  const text = a.hasText && b.hasText ? containment(a.text, b.text) : null;
  // Copies share nearly every word pair even when rewritten or cut; two flats of one agency's
  // template share about half of them.
  if (text !== null) add('text', text >= 0.85 ? 4 : text >= 0.7 ? 2 : text >= 0.55 ? 0 : -3);

  if (a.price !== null && b.price !== null) {
    const gap = relativeGap(a.price, b.price);
    add('price', samePrice(a.price, b.price) ? 1 : gap <= 0.03 ? 0.5 : gap <= 0.05 ? 0 : gap <= 0.08 ? -0.5 : -1.5);
  }
  if (a.surface !== null && b.surface !== null) add('surface', surfacePoints(a.surface, b.surface));
  // The same number of rooms on both sides: with the same price and surface, it is what a sparse
  // copy (a price, a surface, the rooms and a place, nothing else) can offer.
  if (a.rooms !== null && b.rooms !== null) add('rooms', 0.5);
  add('dpe', same(a.dpe, b.dpe, 1, -3));
  add('ges', same(a.ges, b.ges, 0.5, -2));
  add('dpe_value', same(a.dpeValue, b.dpeValue, 2, -3));
  add('ges_value', same(a.gesValue, b.gesValue, 1, -2));
  add('year_built', same(a.yearBuilt, b.yearBuilt, 1, -3));
  if (floorsComparable(a, b)) add('floor', 1);
  add('bedrooms', same(a.bedrooms, b.bedrooms, 0.3, -2));
  if (a.landSurface !== null && b.landSurface !== null) add('land_surface', relativeGap(a.landSurface, b.landSurface) <= 0.03 ? 1 : -2);
  // Sites spell one agency their own way ("Mcd" / "MCD ORPI"), name one office or another, show an
  // agent's name instead, and another agency often holds a mandate too: a name inside the other is
  // the same agency, one brand word is nearly as telling, and a different name is no evidence.
  if (a.seller !== null && b.seller !== null) add('agency', agencyPoints(a.seller, b.seller));
  const metres = distance(a, b);
  // Coordinates are rounded to ~111 m and often a commune centre: weak evidence either way.
  if (metres !== null) add('distance', metres <= 150 ? 0.5 : metres > 3_000 ? -1 : 0);

  let score = 0;
  for (const points of Object.values(parts)) score += points;
  return { score, parts };
}

/**
 * Whether two listings agree on every value both carry: within the limits, no evidence against, and
 * the price, surface and description (when both give one) each count for the pair. A sparse copy
 * (a price and nothing else) agrees with a full one while scoring little: its low score says it has
 * little to compare, not that it differs.
 */
export function agreesOnSharedValues(a: Features, b: Features): boolean {
  const { score, parts } = scoreDetail(a, b);
  if (score === -Infinity) return false;
  if (Object.values(parts).some((points) => points < 0)) return false;
  if (a.price !== null && b.price !== null && !(parts.price >= 1)) return false;
  if (a.surface !== null && b.surface !== null && !(parts.surface > 0)) return false;
  return !(a.hasText && b.hasText && !(parts.text > 0));
}

/**
 * Points of two surfaces within the hard limit. The same Carrez measure to the decimal (74.82 m²) is
 * rarely a coincidence; whole metres often are. A surface one site rounds or truncates to whole
 * metres (45.95 / 46, 56.68 / 56) is the same measure, and so are two within 0.6 m² (a measure
 * taken again); beyond that, up to a metre, nothing; more is another flat.
 */
export function surfacePoints(a: number, b: number): number {
  const gap = Math.abs(a - b);
  if (gap === 0) return Number.isInteger(a) ? 1 : 2;
  if (withinRounding(a, b) || gap <= SAME_MEASURE_M2) return 1;
  return gap <= 1 ? 0 : -2;
}

const SAME_MEASURE_M2 = 0.6;

/** One surface is the other rounded, floored or ceiled to whole metres. */
export function withinRounding(a: number, b: number): boolean {
  if (Number.isInteger(a) === Number.isInteger(b)) return false;
  const [whole, exact] = Number.isInteger(a) ? [a, b] : [b, a];
  return whole === Math.round(exact) || whole === Math.floor(exact) || whole === Math.ceil(exact);
}

/**
 * Two folded agency names of which one holds every word of the other. Sites cut long names at the
 * width of a field ("… agent mandataire Optimho" for an Optimhome mandatary): the last word of the
 * longer name may be the start of a word of the shorter, when it is long enough not to be a word of
 * its own.
 */
export function sameAgency(a: string, b: string): boolean {
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const longerWords = longer.split(' ');
  const words = new Set(longerWords);
  const cut = longerWords[longerWords.length - 1];
  const cutStarts = (word: string) => cut.length >= CUT_WORD_MIN && word.length > cut.length && word.startsWith(cut);
  return shorter.split(' ').every((word) => words.has(word) || cutStarts(word));
}

/** Letters a cut last word keeps at least, to be read as the start of a longer one. */
const CUT_WORD_MIN = 5;

/**
 * Points of two named agencies: the same agency (one name inside the other) 1.5; one brand with two
 * offices or spellings ("Evolis Groupe JLV" / "Evolis IDF Ouest", "Secri Immobilier" / "Secri
 * Gestion") 1; two other names nothing, since another agency often holds a mandate too.
 */
export function agencyPoints(a: string, b: string): number {
  if (sameAgency(a, b)) return 1.5;
  return sameBrand(a, b) ? 1 : 0;
}

/**
 * Words that open agency names without naming the agency ("Agence du Parc", "Cabinet Martin", "Paris
 * Ouest Immobilier"): the first word is a brand only when it is none of these.
 */
const GENERIC_FIRST_WORDS = new Set(['agence', 'cabinet', 'groupe', 'immo', 'immobilier', 'immobiliere', 'office', 'societe', 'sarl', 'scp', 'paris']);
/** Letters a first word needs to be read as a brand ("l adresse", "m dupont", "as investimmo" are not). */
const BRAND_MIN = 4;

/** Two folded agency names opening with the same brand word. */
export function sameBrand(a: string, b: string): boolean {
  const first = a.split(' ')[0];
  return first.length >= BRAND_MIN && !GENERIC_FIRST_WORDS.has(first) && first === b.split(' ')[0];
}

/** The same price, to the rounding of its cents (3 124 / 3 125 € a month). */
export function samePrice(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1;
}

function same<T>(a: T | null, b: T | null, equal: number, different: number): number {
  if (a === null || b === null) return 0;
  return a === b ? equal : different;
}

function relativeGap(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(a, b);
}

/** Metres between the two listings' (rounded) coordinates, null when either has none. */
function distance(a: Features, b: Features): number | null {
  if (a.lat === null || a.lon === null || b.lat === null || b.lon === null) return null;
  const dLat = (a.lat - b.lat) * 111_195;
  const dLon = (a.lon - b.lon) * 111_195 * Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
  return Math.sqrt(dLat * dLat + dLon * dLon);
}
