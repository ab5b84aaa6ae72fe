/**
 * What the scorer compares, read once per listing from its OWN content (own-content.ts): numbers as
 * numbers; the agency name (folded) and the text shingles are computed on first use, because most
 * pairs of a block are told apart by surface, rooms or price before they are ever needed.
 */
import type { StoredListing } from '../../src/listings/stored.js';
import { ownContent } from './own-content.js';
import { foldWords, shingles } from './shingles.js';

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

export function featuresOf(listing: Pick<StoredListing, 'id' | 'content' | 'completed_from'>): Features {
  const c = ownContent(listing);
  let text: Uint32Array | null = null;
  let seller: string | null | undefined;
  let floor: string | null | undefined;
  return {
    id: listing.id,
    source: c.source,
    surface: positive(c.surface),
    landSurface: positive(c.land_surface),
    rooms: c.rooms,
    bedrooms: c.bedrooms,
    price: positive(c.price),
    lat: c.latitude,
    lon: c.longitude,
    dpe: c.dpe,
    ges: c.ges,
    dpeValue: c.dpe_value,
    gesValue: c.ges_value,
    yearBuilt: c.year_built,
    get seller() { return seller === undefined ? (seller = c.seller_type === 'Pro' && c.seller_name ? foldWords(c.seller_name) : null) : seller; },
    get text() { return (text ??= shingles(c.description)); },
    hasText: Boolean(c.description),
    get floor() { return floor === undefined ? (floor = floorOf(c.description)) : floor; },
  };
}

/** A zero surface or price is a placeholder, not a value to compare. */
function positive(value: number | null): number | null {
  return value !== null && value > 0 ? value : null;
}
