/**
 * Why the grouping missed true pairs or made false ones (`npm run dedup-eval -- ... --explain`):
 * counts by reason, with a few examples, to tune the scoring or to say what a generated catalogue
 * lacks. Reads only the listings of the pairs it explains.
 */
import { blockBaseOf, blockPlaceOf } from '../../src/core/dedup/block-key.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import { featuresOf, type Features } from '../../src/core/dedup/features.js';
import { floorsComparable, LIMITS, MATCH_THRESHOLD, scoreDetail, surfacesClose } from './score.js';
import { scanListings } from './scan.js';
import { WEAK_MATCH_BELOW } from './cluster.js';

export interface Explanation {
  missed: Record<string, number>;
  wrong: Record<string, number>;
  examples: { kind: 'missed' | 'wrong'; reason: string; a: string; b: string; detail: string }[];
}

const EXAMPLES_PER_REASON = 3;

export async function explainPairs(store: ListingIndex, labels: ReadonlyMap<string, string>): Promise<Explanation> {
  const byLabel = new Map<string, string[]>();
  const byKey = new Map<string, string[]>();
  const keyOf = new Map<string, string | null>();
  for await (const page of scanListings(store, 'active')) {
    for (const listing of page) {
      const label = labels.get(listing.id);
      if (label === undefined) continue;
      push(byLabel, label, listing.id);
      keyOf.set(listing.id, listing.dedup_key);
      if (listing.dedup_key !== null) push(byKey, listing.dedup_key, listing.id);
    }
  }
  const missedPairs: [string, string][] = [];
  for (const ids of byLabel.values())
    forPairs(ids, (a, b) => {
      if (keyOf.get(a) === null || keyOf.get(a) !== keyOf.get(b)) missedPairs.push([a, b]);
    });
  const wrongPairs: [string, string][] = [];
  for (const ids of byKey.values())
    forPairs(ids, (a, b) => {
      if (labels.get(a) !== labels.get(b)) wrongPairs.push([a, b]);
    });

  const explanation: Explanation = { missed: {}, wrong: {}, examples: [] };
  const classify = async (pairs: [string, string][], kind: 'missed' | 'wrong') => {
    const counts = kind === 'missed' ? explanation.missed : explanation.wrong;
    for (let i = 0; i < pairs.length; i += 250) {
      const chunk = pairs.slice(i, i + 250);
      const listings = await store.getMany([...new Set(chunk.flat())]);
      for (const [a, b] of chunk) {
        const la = listings.get(a)!;
        const lb = listings.get(b)!;
        const { reason, detail } = reasonOf(la, lb, kind);
        counts[reason] = (counts[reason] ?? 0) + 1;
        if (explanation.examples.filter((e) => e.kind === kind && e.reason === reason).length < EXAMPLES_PER_REASON) {
          explanation.examples.push({ kind, reason, a, b, detail });
        }
      }
    }
  };
  await classify(missedPairs, 'missed');
  await classify(wrongPairs, 'wrong');
  return explanation;
}

function reasonOf(a: StoredListing, b: StoredListing, kind: 'missed' | 'wrong'): { reason: string; detail: string } {
  const ca = a.content;
  const cb = b.content;
  const basics = `${ca.source} ${ca.postal_code} ${ca.type} ${ca.price} ${ca.surface}m² | ${cb.source} ${cb.postal_code} ${cb.type} ${cb.price} ${cb.surface}m²`;
  if (blockBaseOf(a) === null || blockBaseOf(b) === null) return { reason: 'no place (postal code or commune)', detail: basics };
  if (ca.transaction_type !== cb.transaction_type) return { reason: 'other transaction', detail: basics };
  if (ca.type !== cb.type) return { reason: 'other type', detail: basics };
  if (blockPlaceOf(ca) !== blockPlaceOf(cb)) return { reason: 'other place', detail: basics };
  const fa = featuresOf(a);
  const fb = featuresOf(b);
  if (fa.source === fb.source) return { reason: 'same site', detail: basics };
  if (fa.rooms !== null && fb.rooms !== null && fa.rooms !== fb.rooms) return { reason: 'limit: rooms', detail: basics };
  if (fa.surface !== null && fb.surface !== null && !surfacesClose(fa.surface, fb.surface)) return { reason: 'limit: surface', detail: basics };
  if ((fa.price === null) !== (fb.price === null)) return { reason: 'limit: price on one side only', detail: basics };
  if (fa.price !== null && fb.price !== null && Math.abs(fa.price - fb.price) / Math.max(fa.price, fb.price) > LIMITS.priceRatio) {
    return { reason: 'limit: price', detail: basics };
  }
  if (floorsComparable(fa, fb) && fa.floor !== fb.floor) return { reason: 'limit: floor', detail: `${basics} floors ${fa.floor}/${fb.floor}` };
  const score = scoreDetail(fa, fb);
  const detail = `${basics} score ${score.score} ${JSON.stringify(score.parts)}`;
  if (kind === 'wrong') return { reason: score.score >= MATCH_THRESHOLD ? 'scored as a match' : 'joined through a chain of matches', detail };
  if (score.score < MATCH_THRESHOLD) return { reason: 'score below threshold', detail };
  return { reason: 'matching pair, union refused (site or chain limits)', detail };
}

function push(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

function forPairs(ids: string[], visit: (a: string, b: string) => void): void {
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) visit(ids[i], ids[j]);
}

/**
 * Why two stored listings are or are not one group, evidence by evidence (`npm run indexer -- dedup
 * explain <source>/<reference> <source>/<reference>`): their blocks, each hard limit, each piece of
 * evidence with its points (and the criteria that give none, with why), the score against the
 * threshold, and the groups the store holds them in. Only values the scorer uses are printed, never
 * a description or a contact.
 */
export function explainPair(a: StoredListing, b: StoredListing): string[] {
  const fa = featuresOf(a);
  const fb = featuresOf(b);
  const lines: string[] = [`${a.id} and ${b.id}`];
  const baseA = blockBaseOf(a);
  const baseB = blockBaseOf(b);
  lines.push(
    `block: ${baseA ?? 'none (no postal code or commune)'} / ${baseB ?? 'none'}: ${baseA !== null && baseA === baseB ? 'the same, they are compared' : 'not the same, they are never compared'}`,
  );
  const limits: [string, boolean, string][] = [
    ['site', fa.source !== fb.source, `${fa.source} / ${fb.source}`],
    ['rooms', fa.rooms === null || fb.rooms === null || fa.rooms === fb.rooms, `${show(fa.rooms)} / ${show(fb.rooms)}`],
    [
      'surface',
      fa.surface === null || fb.surface === null || surfacesClose(fa.surface, fb.surface),
      `${show(fa.surface)} / ${show(fb.surface)} m² (within ${LIMITS.surfaceRatio * 100} % or ${LIMITS.surfaceAbsolute} m²)`,
    ],
    ['price', priceLimitHolds(fa, fb), `${show(fa.price)} / ${show(fb.price)} (within ${LIMITS.priceRatio * 100} %, on both sides or neither)`],
    ['floor', !floorsComparable(fa, fb) || fa.floor === fb.floor, `${show(fa.floor)} / ${show(fb.floor)}`],
  ];
  for (const [name, holds, values] of limits) lines.push(`limit ${name}: ${values}: ${holds ? 'ok' : 'OUTSIDE, not one property'}`);
  const detail = scoreDetail(fa, fb);
  if (detail.score !== -Infinity) {
    for (const [name, values] of evidenceValues(fa, fb)) {
      const points = detail.parts[name];
      lines.push(`evidence ${name}: ${values}: ${points === undefined ? 'no evidence' : `${points > 0 ? '+' : ''}${points}`}`);
    }
    lines.push(`score ${detail.score} against ${MATCH_THRESHOLD}: ${detail.score >= MATCH_THRESHOLD ? 'a match' : 'not a match'}`);
  }
  const sameGroup = a.dedup_key !== null && a.dedup_key === b.dedup_key;
  const why =
    sameGroup && detail.score < MATCH_THRESHOLD
      ? ' (joined through other members)'
      : !sameGroup && detail.score >= MATCH_THRESHOLD
        ? ` (the union was refused: a group holds one listing per site and none outside the limits of another member; a match below ${WEAK_MATCH_BELOW} also needs to be the only one of its kind with that site and every member to match it or to agree with it on every value both carry; matches of one score join closest first)`
        : '';
  lines.push(`stored groups: ${a.dedup_key ?? 'none'} / ${b.dedup_key ?? 'none'}: ${sameGroup ? 'one group' : 'not one group'}${why}`);
  return lines;
}

function priceLimitHolds(a: Features, b: Features): boolean {
  if ((a.price === null) !== (b.price === null)) return false;
  return a.price === null || b.price === null || Math.abs(a.price - b.price) / Math.max(a.price, b.price) <= LIMITS.priceRatio;
}

/** The criteria of score.ts that compare one value of each side, with how to read it. */
const COMPARED: readonly (readonly [string, (f: Features) => unknown])[] = [
  ['price', (f) => f.price],
  ['surface', (f) => f.surface],
  ['rooms', (f) => f.rooms],
  ['dpe', (f) => f.dpe],
  ['ges', (f) => f.ges],
  ['dpe_value', (f) => f.dpeValue],
  ['ges_value', (f) => f.gesValue],
  ['year_built', (f) => f.yearBuilt],
  ['floor', (f) => f.floor],
  ['bedrooms', (f) => f.bedrooms],
  ['land_surface', (f) => f.landSurface],
  ['agency', (f) => f.seller],
  ['distance', (f) => (f.lat === null || f.lon === null ? null : `${f.lat},${f.lon}`)],
];

/** Each criterion of score.ts with the two values it compares. */
function evidenceValues(a: Features, b: Features): [string, string][] {
  const text = a.hasText && b.hasText ? 'descriptions on both sides' : 'no description on one side at least';
  return [['text', text], ...COMPARED.map(([name, read]): [string, string] => [name, `${show(read(a))} / ${show(read(b))}`])];
}

function show(value: unknown): string {
  return value === null || value === undefined ? '-' : String(value);
}
