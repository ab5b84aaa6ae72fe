/**
 * Which alerts a change can concern, without matching it against every alert: each alert is filed
 * under the value of one of its equality filters (postal code, city, department, region, type,
 * transaction: the first it sets, in that order, the most selective first), so a listing is looked
 * up once per filed key and matched only against the alerts filed under its own values and the few
 * alerts that set none of those filters. The conditions of each alert and of its scope are derived
 * once per index, not once per listing. What it keeps is exactly what inScope and matchesFilter
 * keep (listing-match.ts): the filed condition is one of the alert's own, compared the same way.
 */
import type { StoredListing } from '../model/stored.js';
import { holds } from '../query/listing-match.js';
import { filterConditions, type Condition } from '../query/filters.js';
import type { ListingFilter, Scope } from '../query/query.js';
import { siteConditions } from '../query/scope.js';
import { storedValue, type StoredKey } from '../query/stored-keys.js';

/** The keys an alert may be filed under, the most selective first. */
const FILED_KEYS: readonly StoredKey[] = ['content.postal_code', 'city_norm', 'content.department', 'region_norm', 'type_norm', 'content.transaction_type'];

interface Indexed<T> {
  item: T;
  conditions: Condition[];
}

export class AlertIndex<T> {
  /** Per filed key, the alerts filed under each value. */
  private readonly filed = new Map<StoredKey, Map<unknown, Indexed<T>[]>>();
  /** Alerts that set none of the filed keys: matched against every listing. */
  private readonly unfiled: Indexed<T>[] = [];

  constructor(entries: readonly { item: T; filter: ListingFilter; scope: Scope }[]) {
    for (const { item, filter, scope } of entries) {
      const conditions = [...siteConditions(scope), ...filterConditions(filter).map(({ condition }) => condition)];
      const indexed = { item, conditions };
      const key = fileKey(conditions);
      if (!key) {
        this.unfiled.push(indexed);
        continue;
      }
      let byValue = this.filed.get(key.key);
      if (!byValue) {
        byValue = new Map();
        this.filed.set(key.key, byValue);
      }
      for (const value of new Set(key.values)) {
        const bucket = byValue.get(value);
        if (bucket) bucket.push(indexed);
        else byValue.set(value, [indexed]);
      }
    }
  }

  /** The items whose alert keeps the listing (its scope and its filters), each once. */
  matching(listing: StoredListing): T[] {
    const candidates: Indexed<T>[][] = [this.unfiled];
    for (const [key, byValue] of this.filed) {
      const bucket = byValue.get(storedValue(listing, key));
      if (bucket) candidates.push(bucket);
    }
    const kept: T[] = [];
    for (const bucket of candidates) {
      for (const { item, conditions } of bucket) if (conditions.every((condition) => holds(listing, condition))) kept.push(item);
    }
    return kept;
  }
}

/** The filed key of an alert and the values it accepts, or null when it sets none of FILED_KEYS. */
function fileKey(conditions: readonly Condition[]): { key: StoredKey; values: readonly unknown[] } | null {
  for (const key of FILED_KEYS) {
    for (const condition of conditions) {
      if (condition.op === 'equals' && condition.key === key) return { key, values: [condition.value] };
      if (condition.op === 'oneOf' && condition.key === key) return { key, values: condition.values };
    }
  }
  return null;
}
