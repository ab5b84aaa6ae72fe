/**
 * Whether one stored listing passes an engine-neutral filter and scope, in memory: the notifier
 * reads each change once and matches it against every alert, instead of asking the store once per
 * alert. It follows the feed's rules of docs/api.md (site listings one by one, photo or not): `q`
 * words against the folded title and description words, like the stores' text indexes; unknown
 * values fail a bound, as in the stores.
 */
import { inArea } from './geo.js';
import type { StoredListing } from '../model/stored.js';
import { foldText, textTokens } from '../refdata/text.js';
import type { ListingFilter, Scope } from './query.js';

function within(value: number | null, min: number | undefined, max: number | undefined): boolean {
  if (min === undefined && max === undefined) return true;
  if (value === null) return false;
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

function hasEveryWord(listing: StoredListing, words: readonly string[]): boolean {
  const present = new Set([...textTokens(listing.content.title ?? ''), ...textTokens(listing.content.description ?? '')]);
  return words.every((word) => present.has(word));
}

function oneOfFolded(value: string | null, wanted: readonly string[] | undefined): boolean {
  return wanted === undefined || (value !== null && wanted.includes(foldText(value)));
}

export function inScope(listing: StoredListing, scope: Scope): boolean {
  if (listing.catalogue_entered_at < scope.enteredFrom) return false;
  return scope.eligibleSites === null || scope.eligibleSites.includes(listing.content.source);
}

export function matchesFilter(listing: StoredListing, filter: ListingFilter): boolean {
  const content = listing.content;
  const checks: boolean[] = [
    oneOfFolded(content.type, filter.types),
    filter.transaction === undefined || content.transaction_type === filter.transaction,
    oneOfFolded(content.city, filter.cities),
    filter.postalCode === undefined || content.postal_code === filter.postalCode,
    filter.department === undefined || content.department === filter.department,
    oneOfFolded(content.region, filter.region === undefined ? undefined : [filter.region]),
    within(content.price, filter.priceMin, filter.priceMax),
    within(content.price_per_m2, filter.pricePerM2Min, filter.pricePerM2Max),
    within(content.surface, filter.surfaceMin, filter.surfaceMax),
    within(content.rooms, filter.roomsMin, undefined),
    within(content.bedrooms, filter.bedroomsMin, undefined),
    within(content.year_built, filter.yearMin, filter.yearMax),
    filter.dpe === undefined || (content.dpe !== null && filter.dpe.includes(content.dpe)),
    filter.ges === undefined || (content.ges !== null && filter.ges.includes(content.ges)),
    filter.updatedSince === undefined || listing.updated_at >= filter.updatedSince,
    filter.createdSince === undefined || (listing.published_at !== null && listing.published_at >= filter.createdSince),
    filter.relisted === undefined || !!listing.relisted_from === filter.relisted,
    // A polygon or a circle holds located listings only, as both engines filter them.
    filter.area === undefined ||
      (content.latitude !== null && content.longitude !== null && inArea(filter.area, { lat: content.latitude, lon: content.longitude })),
  ];
  return checks.every(Boolean) && (!filter.words?.length || hasEveryWord(listing, filter.words));
}
