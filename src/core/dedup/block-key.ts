/**
 * Blocking key of deduplication (docs/deduplication.md), shared by the indexer (which reads blocks
 * through ListingStore.findBlock) and the stores (which index the key), so both always agree.
 *
 * Duplicate candidates share transaction, normalised type and PLACE (the "base"). The place is the
 * postal code, except where one commune spans several postal codes (Toulon: 83000, 83100, 83200):
 * there it is the commune, because sites that give only the city name (Leboncoin) leave the postal
 * code unknown, and a copy with a postal code must still meet a copy without one. A listing with a
 * city name and no postal code is placed in its commune the same way. Paris, Lyon and Marseille keep
 * their arrondissements' postal codes (one commune of tens of thousands of listings would make blocks
 * too big to read for every record); a listing that names only "Paris" meets the others that do.
 *
 * Inside a base the key adds a PRICE BUCKET, because a base can hold hundreds of flats (thousands on
 * a national catalogue) and the indexer reads a listing's candidates for every batch it appears in:
 * - copies of one property are never more than 10 % apart in price (score.ts LIMITS.priceRatio), and a
 *   bucket is a little wider than 10 % on a log scale, so any two prices within 10 % fall in the same
 *   or in adjacent buckets: neighbouring buckets must still meet, and a listing's candidates are read
 *   from its bucket and the two around it (`neighbourKeys`);
 * - a listing without a price goes to bucket `-`, and only meets listings without a price (the price
 *   limit treats "one price unknown" as not comparable, so blocking and scoring agree).
 * Surface is not used: sites omit it more often than the price, and rounding makes it a worse key.
 */
import { loadCommunes, type Commune } from '../refdata/communes.js';
import { foldText } from '../refdata/text.js';
import type { ListingContent, StoredListing } from '../model/stored.js';

/** Slightly wider than ln(1 / 0.9), so a 10 % price gap never spans more than one bucket boundary. */
export const PRICE_BUCKET_WIDTH = Math.log(1 / 0.9) * 1.001;
const NO_PRICE = '-';

type WithContent = Pick<StoredListing, 'content'>;

/** `transaction|folded type|place`, or null when the place is unknown (never grouped). */
export function blockBaseOf(listing: WithContent): string | null {
  const c = listing.content;
  const place = blockPlaceOf(c);
  if (place === null) return null;
  return `${c.transaction_type}|${foldedType(c.type)}|${place}`;
}

/** Communes cut into arrondissements, whose postal codes stay the place (see above). */
const ARRONDISSEMENT_COMMUNES = new Set(['75056', '69123', '13055']);

interface PlaceTable {
  /** INSEE codes of the communes that have several postal codes. */
  multiCode: Set<string>;
  communes: ReturnType<typeof loadCommunes>;
}
let placeTable: PlaceTable | undefined;
function places(): PlaceTable {
  if (placeTable) return placeTable;
  const communes = loadCommunes();
  const codes = new Map<string, Set<string>>();
  for (const commune of communes.all) {
    let set = codes.get(commune.insee);
    if (!set) codes.set(commune.insee, (set = new Set()));
    set.add(commune.postalCode);
  }
  const multiCode = new Set<string>();
  for (const [insee, set] of codes) if (set.size > 1 && !ARRONDISSEMENT_COMMUNES.has(insee)) multiCode.add(insee);
  return (placeTable = { multiCode, communes });
}

/**
 * Builds the tables block keys read (the commune table and its places), which the first key asked for
 * otherwise builds: most of a second on a busy machine, so a writer builds them before its lease starts.
 */
export function prepareBlockKeys(): void {
  places();
}

type PlaceFields = Pick<ListingContent, 'postal_code' | 'city' | 'department'>;

/** Places repeat across millions of listings: memoised, in a map emptied when it is full. */
const PLACE_CACHE_SIZE = 20_000;
const placeCache = new Map<string, string | null>();

/** The place part of a block base: the postal code, or `c<INSEE>` for a commune (see above); null when unknown. */
export function blockPlaceOf(content: PlaceFields): string | null {
  const cacheKey = `${content.postal_code ?? ''}|${content.city ?? ''}|${content.department ?? ''}`;
  let place = placeCache.get(cacheKey);
  if (place === undefined) {
    place = placeUncached(content);
    if (placeCache.size >= PLACE_CACHE_SIZE) placeCache.clear();
    placeCache.set(cacheKey, place);
  }
  return place;
}

function placeUncached(content: PlaceFields): string | null {
  const commune = communeOfContent(content);
  if (commune !== null && places().multiCode.has(commune.insee)) return `c${commune.insee}`;
  if (content.postal_code) return content.postal_code;
  if (commune === null) return null;
  return ARRONDISSEMENT_COMMUNES.has(commune.insee) ? `c${commune.insee}` : commune.postalCode;
}

/**
 * The commune a listing's place names: the postal code's commune of that name (or its only one),
 * else the commune of that name (in its department when several share the name); null when
 * unknown or ambiguous. The indexer has already corrected city names to the table's (normalise.ts).
 */
function communeOfContent(content: PlaceFields): Commune | null {
  const table = places().communes;
  const folded = content.city ? foldText(content.city) : null;
  if (content.postal_code) {
    const byCode = table.byPostalCode(content.postal_code);
    const named = folded === null ? [] : byCode.filter((c) => foldText(c.name) === folded);
    if (named.length > 0) return named[0];
    return byCode.length > 0 && byCode.every((c) => c.insee === byCode[0].insee) ? byCode[0] : null;
  }
  if (content.city === null) return null;
  let named = table.byName(content.city);
  if (content.department) named = named.filter((c) => c.department === content.department);
  return named.length > 0 && named.every((c) => c.insee === named[0].insee) ? named[0] : null;
}

/**
 * Whether a position is the centre of the listing's commune, to the 3 decimals positions are stored
 * with: what the indexer imputes to a listing without coordinates (normalise.ts), or what a
 * collector wrote for one it could not place. Either way it says where the commune is, not the
 * property, so deduplication takes it for no position at all.
 */
export function isCommuneCentre(content: PlaceFields, lat: number, lon: number): boolean {
  const table = places().communes;
  const rows = content.postal_code ? table.byPostalCode(content.postal_code) : content.city ? table.byName(content.city) : [];
  for (const commune of rows) {
    if (commune.lat !== null && commune.lon !== null && round3(commune.lat) === lat && round3(commune.lon) === lon) return true;
  }
  return false;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Types are a handful of normalised names, and the key is computed for every listing read or written. */
const FOLDED_TYPES = new Map<string, string>();
function foldedType(type: string): string {
  let folded = FOLDED_TYPES.get(type);
  if (folded === undefined) {
    folded = foldText(type);
    if (FOLDED_TYPES.size < 1000) FOLDED_TYPES.set(type, folded);
  }
  return folded;
}

/** Bucket number of a price (null without a usable price). */
export function priceBucket(price: number | null): number | null {
  return price !== null && price > 0 ? Math.floor(Math.log(price) / PRICE_BUCKET_WIDTH) : null;
}

/** `base|bucket`: the block a listing is stored in and looked up by. */
export function blockKeyOf(listing: WithContent): string | null {
  const base = blockBaseOf(listing);
  if (base === null) return null;
  const bucket = priceBucket(listing.content.price);
  return `${base}|${bucket ?? NO_PRICE}`;
}

/** The blocks holding every possible candidate of a listing stored under `key`: its bucket and the two around it. */
export function neighbourKeys(key: string): string[] {
  const cut = key.lastIndexOf('|');
  const base = key.slice(0, cut);
  const bucket = key.slice(cut + 1);
  if (bucket === NO_PRICE) return [key];
  const b = Number(bucket);
  return [`${base}|${b - 1}`, key, `${base}|${b + 1}`];
}

/** The base (transaction|type|place) of a block key. */
export function baseOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf('|'));
}
