/**
 * What the duplicate scorer (indexer/dedup/score.ts) compares, read once per listing from its OWN
 * content (indexer/dedup/own-content.ts): numbers as numbers; the agency name (folded) and the text
 * shingles are computed on first use, because most pairs of a block are told apart by surface, rooms
 * or price before they are ever needed.
 *
 * The features are also STORED beside each active listing (FeatureRow; SQLite table dedup_features):
 * a load reads the candidates of every record (its block and the two around it, about 36 listings per
 * record at 1M) and reading them as features instead of whole documents is what keeps a load's speed
 * from falling as the catalogue grows. They belong here, beside block-key.ts, for that reason: the
 * store writes them with the listing.
 */
import type { ListingContent, StoredListing } from '../model/stored.js';
import { foldWords, shingles } from './shingles.js';
import { isCommuneCentre } from './block-key.js';

export interface Features {
  readonly id: string;
  readonly source: string;
  readonly surface: number | null;
  readonly landSurface: number | null;
  readonly rooms: number | null;
  readonly bedrooms: number | null;
  readonly price: number | null;
  readonly lat: number | null;
  readonly lon: number | null;
  readonly dpe: string | null;
  readonly ges: string | null;
  readonly dpeValue: number | null;
  readonly gesValue: number | null;
  readonly yearBuilt: number | null;
  /** Agency name, upper/lower case and accents folded; null for private sellers. */
  readonly seller: string | null;
  /** Description shingles (computed on first use). */
  readonly text: Uint32Array;
  readonly hasText: boolean;
  /** Floor stated in the description ("0" ground floor, "3", "last"), null when none (computed on first use). */
  readonly floor: string | null;
}

/**
 * "au 3e étage", "1er étage", "au 2ème étage", "rez-de-chaussée", "RDC", "dernier étage": French
 * listings of flats nearly always give the floor, and it is what tells two flats of one building apart.
 */
const FLOOR = /\b(\d{1,2})\s*(?:er|ere|re|e|eme|ème|è)\s+[ée]tage\b|\b(rez[- ]de[- ]chauss[ée]e|rdc)\b|\b(dernier\s+[ée]tage)\b/i;

export function floorOf(description: string | null): string | null {
  const match = description ? FLOOR.exec(description) : null;
  if (!match) return null;
  if (match[1] !== undefined) return String(Number(match[1]));
  return match[2] !== undefined ? '0' : 'last';
}

/**
 * Features of a listing, computed once per listing object: a block kept in the cache (blocks.ts) is
 * regrouped by many batches, and its listings' texts are shingled once, not once per batch. The map is
 * weak: it holds nothing its listings do not, and a rewritten listing is a new object.
 */
const computed = new WeakMap<object, Features>();

export function featuresOf(listing: Pick<StoredListing, 'id' | 'content' | 'completed_from'>): Features {
  let features = computed.get(listing);
  if (features === undefined) computed.set(listing, (features = compute(listing)));
  return features;
}

function compute(listing: Pick<StoredListing, 'id' | 'content' | 'completed_from'>): Features {
  const c = listing.content;
  // Own values only: a value completed from a duplicate is no evidence (own-content.ts).
  const completed = listing.completed_from;
  const own = <K extends keyof ListingContent>(field: K): ListingContent[K] | null => (field in completed ? null : c[field]);
  const description = own('description');
  const position = ownPosition(c, own('latitude'), own('longitude'));
  let text: Uint32Array | null = null;
  let seller: string | null | undefined;
  let floor: string | null | undefined;
  return {
    id: listing.id,
    source: c.source,
    surface: positive(own('surface')),
    landSurface: positive(own('land_surface')),
    rooms: own('rooms'),
    bedrooms: own('bedrooms'),
    price: positive(c.price),
    lat: position.lat,
    lon: position.lon,
    dpe: own('dpe'),
    ges: own('ges'),
    dpeValue: own('dpe_value'),
    gesValue: own('ges_value'),
    yearBuilt: own('year_built'),
    get seller() {
      return seller === undefined ? (seller = c.seller_type === 'Pro' && c.seller_name ? foldWords(c.seller_name) : null) : seller;
    },
    get text() {
      return (text ??= shingles(description));
    },
    hasText: Boolean(description),
    get floor() {
      return floor === undefined ? (floor = floorOf(description)) : floor;
    },
  };
}

/** The listing's own position; none when it is its commune's centre (an imputed value is no evidence). */
function ownPosition(content: ListingContent, lat: number | null, lon: number | null): { lat: number | null; lon: number | null } {
  if (lat === null || lon === null || isCommuneCentre(content, lat, lon)) return { lat: null, lon: null };
  return { lat, lon };
}

/** A zero surface or price is a placeholder, not a value to compare. */
function positive(value: number | null): number | null {
  return value !== null && value > 0 ? value : null;
}

/**
 * The stored form of a listing's features: typed columns in this order, and the shingles as 32-bit
 * integers in a BLOB (written and read as the Uint32Array is in memory: every platform Node runs on
 * in production is little-endian). Values go in and out as arrays in column order: better-sqlite3
 * binds and reads arrays faster than objects of named columns, and a block's candidates are read
 * for every listing grouped.
 */
export const FEATURE_COLUMNS = [
  'source',
  'surface',
  'land_surface',
  'rooms',
  'bedrooms',
  'price',
  'lat',
  'lon',
  'dpe',
  'ges',
  'dpe_value',
  'ges_value',
  'year_built',
  'seller',
  'floor',
  'has_text',
  'shingles',
] as const;

type FeatureValue = string | number | null | Buffer;

/** The stored values of a listing's features, in FEATURE_COLUMNS order. */
export function featureValuesOf(listing: Pick<StoredListing, 'id' | 'content' | 'completed_from'>): FeatureValue[] {
  const f = featuresOf(listing);
  const text = f.text;
  return [
    f.source,
    f.surface,
    f.landSurface,
    f.rooms,
    f.bedrooms,
    f.price,
    f.lat,
    f.lon,
    f.dpe,
    f.ges,
    f.dpeValue,
    f.gesValue,
    f.yearBuilt,
    f.seller,
    f.floor,
    f.hasText ? 1 : 0,
    Buffer.from(text.buffer, text.byteOffset, text.byteLength),
  ];
}

/** Features of listing `id` from its stored values (FEATURE_COLUMNS from `row[at]` on): the values featuresOf gives. */
export function featuresFromValues(id: string, row: readonly unknown[], at: number): Features {
  const value = <T>(column: number) => row[at + column] as T;
  const bytes = value<Buffer>(16);
  // A Uint32Array view needs a 4-byte aligned offset; a Buffer from SQLite may sit anywhere in its pool.
  const text =
    bytes.byteOffset % 4 === 0
      ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2)
      : new Uint32Array(Uint8Array.prototype.slice.call(bytes).buffer);
  return {
    id,
    source: value(0),
    surface: value(1),
    landSurface: value(2),
    rooms: value(3),
    bedrooms: value(4),
    price: value(5),
    lat: value(6),
    lon: value(7),
    dpe: value(8),
    ges: value(9),
    dpeValue: value(10),
    gesValue: value(11),
    yearBuilt: value(12),
    seller: value(13),
    floor: value(14),
    hasText: value(15) === 1,
    text,
  };
}

/**
 * Features of which the store gave the site and the surface with the candidate (the entries of its
 * block index), the rest read on first use: the clustering compares surfaces first and most
 * candidates of a block are never compared further (indexer/dedup/cluster.ts), so most candidates
 * cost no read of their stored features. `load` must give this listing's features as featuresOf does.
 */
export class PartlyStoredFeatures implements Features {
  private all: Features | undefined;

  constructor(
    readonly id: string,
    readonly source: string,
    readonly surface: number | null,
    private readonly load: () => Features,
  ) {}

  get landSurface(): number | null {
    return this.loaded().landSurface;
  }
  get rooms(): number | null {
    return this.loaded().rooms;
  }
  get bedrooms(): number | null {
    return this.loaded().bedrooms;
  }
  get price(): number | null {
    return this.loaded().price;
  }
  get lat(): number | null {
    return this.loaded().lat;
  }
  get lon(): number | null {
    return this.loaded().lon;
  }
  get dpe(): string | null {
    return this.loaded().dpe;
  }
  get ges(): string | null {
    return this.loaded().ges;
  }
  get dpeValue(): number | null {
    return this.loaded().dpeValue;
  }
  get gesValue(): number | null {
    return this.loaded().gesValue;
  }
  get yearBuilt(): number | null {
    return this.loaded().yearBuilt;
  }
  get seller(): string | null {
    return this.loaded().seller;
  }
  get text(): Uint32Array {
    return this.loaded().text;
  }
  get hasText(): boolean {
    return this.loaded().hasText;
  }
  get floor(): string | null {
    return this.loaded().floor;
  }

  /** Whether the stored features were read (for tests and diagnostics). */
  get read(): boolean {
    return this.all !== undefined;
  }

  private loaded(): Features {
    return (this.all ??= this.load());
  }
}
