/**
 * Whether one stored listing passes an engine-neutral filter and scope, in memory: the notifier
 * reads each change once and matches it against every alert, instead of asking the store once per
 * alert. It follows the feed's rules of docs/api.md (site listings one by one, photo or not). The
 * conditions are those of the filter table (filters.ts), read from the listing as the stores index
 * them (stored-keys.ts storedValue): `q` words against the folded title and description words,
 * like the stores' text indexes; unknown values fail a bound, as in the stores.
 */
import { inArea } from './geo.js';
import type { StoredListing } from '../model/stored.js';
import { textTokens } from '../refdata/text.js';
import { filterConditions, type Condition } from './filters.js';
import type { ListingFilter, Scope } from './query.js';
import { siteConditions } from './scope.js';
import { storedValue } from './stored-keys.js';

function hasEveryWord(listing: StoredListing, words: readonly string[]): boolean {
  const present = new Set([...textTokens(listing.content.title ?? ''), ...textTokens(listing.content.description ?? '')]);
  return words.every((word) => present.has(word));
}

/** Whether the listing satisfies one condition, as both stores evaluate it. */
export function holds(listing: StoredListing, condition: Condition): boolean {
  switch (condition.op) {
    case 'equals':
      return storedValue(listing, condition.key) === condition.value;
    case 'oneOf':
      return condition.values.includes(storedValue(listing, condition.key) as string | number);
    case 'range': {
      const value = storedValue(listing, condition.key);
      if (typeof value !== 'number') return false;
      return (condition.min === undefined || value >= condition.min) && (condition.max === undefined || value <= condition.max);
    }
    case 'noneOf': {
      const held = storedValue(listing, condition.key) as readonly string[];
      return !condition.values.some((value) => held.includes(value));
    }
    case 'area': {
      // A polygon or a circle holds located listings only, as both engines filter them.
      const { latitude: lat, longitude: lon } = listing.content;
      return lat !== null && lon !== null && inArea(condition.area, { lat, lon });
    }
    case 'words':
      return hasEveryWord(listing, condition.words);
  }
}

export function inScope(listing: StoredListing, scope: Scope): boolean {
  return siteConditions(scope).every((condition) => holds(listing, condition));
}

export function matchesFilter(listing: StoredListing, filter: ListingFilter): boolean {
  return filterConditions(filter).every(({ condition }) => holds(listing, condition));
}
