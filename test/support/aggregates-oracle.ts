/**
 * Brute-force reference of the aggregate reads (clusters, stats), from the listings in memory, and
 * the check of an Elasticsearch quantile against the exact one within the documented rank bound.
 */
import type { StoredListing } from '../../src/core/model/stored.js';
import type { BoundingBox, ListingFilter, Scope } from '../../src/core/query/query.js';
import { DAY_MS, quantileOfSorted, quartilesOf, tileX, tileY, type Quartiles } from '../../src/core/query/aggregates.js';
import { QUANTILE_RANK_BOUND } from '../../src/adapters/elasticsearch/clusters-body.js';
import { inBox, matchesFilter, visibleInSearch } from './oracle.js';
import { makeListings, prng } from './fixtures.js';

/** The clock of the aggregate tests: the fixtures' withdrawals spread over the 120 days before it. */
export const NOW = Date.parse('2026-10-15T00:00:00Z');

/** The fixtures, with price series (a first price above or below the last one) and spread positions. */
export function aggregateListings(count: number, seed: number): StoredListing[] {
  const random = prng(seed);
  return makeListings({ count, seed }).map((l, i) => {
    const price = l.content.price;
    const first = price === null ? null : Math.round(price * (0.9 + random() * 0.3));
    return {
      ...l,
      content:
        i % 4 === 0 && l.content.latitude !== null
          ? { ...l.content, latitude: Math.round((42 + random() * 8) * 1000) / 1000, longitude: Math.round((-4 + random() * 11) * 1000) / 1000 }
          : l.content,
      price_points:
        first === null || i % 5 === 0
          ? []
          : [
              { at: '2026-06-01T00:00:00.000Z', price: first },
              { at: '2026-08-01T00:00:00.000Z', price: price! },
            ],
      left_market_at: l.left_market_at === null ? null : NOW - Math.floor(random() * 120) * DAY_MS,
    };
  });
}

export interface ExpectedCell {
  key: string;
  count: number;
  lat: number;
  lon: number;
  priceMin: number | null;
  prices: number[];
  ids: string[];
  bounds: BoundingBox;
}

export function expectedCells(
  all: StoredListing[],
  filter: ListingFilter,
  scope: Scope,
  grouped: boolean,
  bbox: BoundingBox,
  zoom: number,
): Map<string, ExpectedCell> {
  const cells = new Map<string, ExpectedCell>();
  for (const l of all) {
    if (!visibleInSearch(l, scope, grouped) || !matchesFilter(l, filter) || !inBox(l, bbox)) continue;
    const { latitude: lat, longitude: lon, price } = l.content;
    const key = `${tileX(lon!, zoom)}/${tileY(lat!, zoom)}`;
    const cell = cells.get(key) ?? {
      key,
      count: 0,
      lat: 0,
      lon: 0,
      priceMin: null,
      prices: [],
      ids: [],
      bounds: { south: lat!, west: lon!, north: lat!, east: lon! },
    };
    cell.bounds = {
      south: Math.min(cell.bounds.south, lat!),
      west: Math.min(cell.bounds.west, lon!),
      north: Math.max(cell.bounds.north, lat!),
      east: Math.max(cell.bounds.east, lon!),
    };
    cell.count++;
    cell.lat += (lat! - cell.lat) / cell.count;
    cell.lon += (lon! - cell.lon) / cell.count;
    if (price !== null) {
      cell.prices.push(price);
      cell.priceMin = cell.priceMin === null ? price : Math.min(cell.priceMin, price);
    }
    cell.ids.push(l.id);
    cells.set(key, cell);
  }
  return cells;
}

export interface ExpectedStats {
  active: { count: number; price: number[]; pricePerM2: number[] };
  withdrawn: { count: number; price: number[]; pricePerM2: number[]; days: number[]; discount: number[] };
}

/** The values behind the figures of /stats for listings already restricted to the area and criteria. */
export function expectedStats(inArea: StoredListing[], scope: Scope, grouped: boolean, withdrawnSince: number): ExpectedStats {
  const values = (ls: StoredListing[], pick: (l: StoredListing) => number | null) => ls.map(pick).filter((v): v is number => v !== null);
  const active = inArea.filter((l) => visibleInSearch(l, scope, grouped));
  const withdrawn = inArea.filter(
    (l) =>
      l.status !== 'active' &&
      l.left_market_at !== null &&
      l.left_market_at >= withdrawnSince &&
      l.catalogue_entered_at >= scope.enteredFrom &&
      (scope.eligibleSites === null || scope.eligibleSites.includes(l.content.source)),
  );
  return {
    active: { count: active.length, price: values(active, (l) => l.content.price), pricePerM2: values(active, (l) => l.content.price_per_m2) },
    withdrawn: {
      count: withdrawn.length,
      price: values(withdrawn, (l) => l.content.price),
      pricePerM2: values(withdrawn, (l) => l.content.price_per_m2),
      days: values(withdrawn, (l) => Math.max(0, l.left_market_at! - (l.published_at ?? l.catalogue_entered_at)) / DAY_MS),
      discount: values(withdrawn, (l) => {
        const points = l.price_points;
        if (!points.length || points[0].price <= 0) return null;
        return ((points[0].price - points[points.length - 1].price) / points[0].price) * 100;
      }),
    },
  };
}

export const exactQuartiles = (values: number[]): Quartiles => quartilesOf([...values]);

/**
 * Whether `value` is an acceptable estimate of quantile q of `values`: between the order statistics
 * at ranks (q - bound)(n - 1) rounded down and (q + bound)(n - 1) rounded up (docs/api.md).
 */
export function withinRankBound(values: number[], q: number, value: number | null, bound = QUANTILE_RANK_BOUND): boolean {
  if (values.length === 0) return value === null;
  if (value === null) return false;
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const low = sorted[Math.max(0, Math.floor((q - bound) * (n - 1)))];
  const high = sorted[Math.min(n - 1, Math.ceil((q + bound) * (n - 1)))];
  const slack = 1e-9 * Math.max(1, Math.abs(high));
  return value >= low - slack && value <= high + slack;
}

export { quantileOfSorted };
