/**
 * Brute-force reference of the store semantics, written independently of any backend: filter every
 * listing in memory, sort, and compare with what a ListingStore returns.
 */
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BoundingBox, ListingFilter, Scope, SortName } from '../../src/core/query/query.js';
import { foldText, textTokens } from '../../src/core/refdata/text.js';
import { inArea } from '../../src/core/query/geo.js';

const words = (text: string | null): Set<string> => new Set(textTokens(text ?? ''));

export function matchesFilter(l: StoredListing, f: ListingFilter): boolean {
  const c = l.content;
  const inRange = (v: number | null, min?: number, max?: number) =>
    (min === undefined || (v !== null && v >= min)) && (max === undefined || (v !== null && v <= max));
  if (f.words?.length) {
    const title = words(c.title);
    const description = words(c.description);
    if (!f.words.every((w) => title.has(w) || description.has(w))) return false;
  }
  if (f.types && !f.types.includes(foldText(c.type))) return false;
  if (f.transaction && c.transaction_type !== f.transaction) return false;
  if (f.cities && !(c.city && f.cities.includes(foldText(c.city)))) return false;
  if (f.postalCode && c.postal_code !== f.postalCode) return false;
  if (f.department && c.department !== f.department) return false;
  if (f.region && !(c.region && foldText(c.region) === f.region)) return false;
  if (!inRange(c.price, f.priceMin, f.priceMax)) return false;
  if (!inRange(c.price_per_m2, f.pricePerM2Min, f.pricePerM2Max)) return false;
  if (!inRange(c.surface, f.surfaceMin, f.surfaceMax)) return false;
  if (!inRange(c.rooms, f.roomsMin)) return false;
  if (!inRange(c.bedrooms, f.bedroomsMin)) return false;
  if (!inRange(c.year_built, f.yearMin, f.yearMax)) return false;
  if (f.dpe && !(c.dpe && f.dpe.includes(c.dpe))) return false;
  if (f.ges && !(c.ges && f.ges.includes(c.ges))) return false;
  if (f.updatedSince !== undefined && l.updated_at < f.updatedSince) return false;
  if (f.createdSince !== undefined && !(l.published_at !== null && l.published_at >= f.createdSince)) return false;
  if (f.relisted !== undefined && !!l.relisted_from !== f.relisted) return false;
  // The shared geometry: Elasticsearch's own (Lucene's) agreeing with it is what the conformance suite checks.
  if (f.area && !(c.latitude !== null && c.longitude !== null && inArea(f.area, { lat: c.latitude, lon: c.longitude }))) return false;
  return true;
}

/** Search visibility: active, with a photo, in the access period, best-ranked eligible site when grouped. */
export function visibleInSearch(l: StoredListing, scope: Scope, grouped: boolean): boolean {
  if (l.status !== 'active' || !l.has_photos || l.catalogue_entered_at < scope.enteredFrom) return false;
  const eligible = scope.eligibleSites;
  if (eligible && !eligible.includes(l.content.source)) return false;
  if (!grouped) return true;
  return eligible ? !l.group_sites_ahead.some((s) => eligible.includes(s)) : l.group_sites_ahead.length === 0;
}

export function sortKey(l: StoredListing, sort: SortName): number {
  const c = l.content;
  switch (sort) {
    case 'recent':
      return -l.updated_at;
    case 'price_asc':
      return c.price ?? Infinity;
    case 'price_desc':
      return c.price === null ? Infinity : -c.price;
    case 'surface_desc':
      return c.surface === null ? Infinity : -c.surface;
    case 'pricem2_asc':
      return c.price_per_m2 ?? Infinity;
  }
}

/** Expected ids of a search, in order (ties broken by id in the sort's direction). */
export function expectedSearch(all: StoredListing[], filter: ListingFilter, scope: Scope, grouped: boolean, sort: SortName): string[] {
  const descending = sort === 'recent' || sort === 'price_desc' || sort === 'surface_desc';
  return all
    .filter((l) => visibleInSearch(l, scope, grouped) && matchesFilter(l, filter))
    .sort((a, b) => sortKey(a, sort) - sortKey(b, sort) || (descending ? cmp(b.id, a.id) : cmp(a.id, b.id)))
    .map((l) => l.id);
}

export function inBox(l: Pick<StoredListing, 'content'>, box: BoundingBox): boolean {
  const { latitude: lat, longitude: lon } = l.content;
  if (lat === null || lon === null || lat < box.south || lat > box.north) return false;
  return box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
