/**
 * The engine-neutral aggregate reads: map clusters (listings counted per web-map tile) and market
 * statistics of an area. Like query.ts, they hold cleaned, typed values only, so each backend's
 * builder is a pure function of them; the tile arithmetic and the exact quantiles are here so that
 * both engines and the tests compute them one way.
 */
import type { TransactionType } from '../model/annonce.js';
import type { BoundingBox, ListingFilter, Scope } from './query.js';
import type { GeoArea } from './geo.js';
import { FILTERS, filterConditions, type FilterCondition } from './filters.js';
import type { JsonText } from '../model/present.js';

/** Highest zoom of the web-map tiling asked for (tiles of about 38 m at the equator). */
export const MAX_CLUSTER_ZOOM = 20;

/**
 * Most tiles a box may cover at the zoom asked: a screen shows a few dozen tiles, and Elasticsearch
 * answers at most this many buckets by default (geotile_grid `size`), so every engine stops there.
 */
export const MAX_CLUSTER_TILES = 10_000;

/** Web Mercator's latitude limit: the tiling has no row beyond it, points past it fall in the edge rows. */
export const MERCATOR_MAX_LATITUDE = 85.0511287798066;

export interface ClustersQuery {
  filter: ListingFilter;
  scope: Scope;
  grouped: boolean;
  bbox: BoundingBox;
  zoom: number;
}

export interface ClusterCell {
  /** Tile of the web-map tiling (slippy-map x, y at `zoom`). */
  zoom: number;
  x: number;
  y: number;
  count: number;
  /** Mean position of the cell's listings. */
  lat: number;
  lon: number;
  /** Over the cell's listings with a known price (null without one). */
  priceMin: number | null;
  priceMedian: number | null;
  /** The listing's id when the cell holds one listing. */
  id: string | null;
  /** The box of the cell's listings: their lowest and highest latitudes and longitudes. */
  bounds: BoundingBox;
  /** The lone listing's map point (presentMapPoint) when the cell holds one listing. */
  point: JsonText | null;
}

export interface ClustersResult {
  /** Sum of the cells' counts: the map's `total` for the same box and filters. */
  total: number;
  cells: ClusterCell[];
}

/** Number of tiles per side at `zoom`. */
export function tilesPerSide(zoom: number): number {
  return 2 ** zoom;
}

/** Column of the tile holding longitude `lon` (the edge column for 180). */
export function tileX(lon: number, zoom: number): number {
  const n = tilesPerSide(zoom);
  return Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
}

/**
 * Row of the tile holding latitude `lat` (row 0 at the north). Written as Elasticsearch's geotile
 * grid writes it (from the sine of the latitude), so both engines put a point in the same row.
 */
export function tileY(lat: number, zoom: number): number {
  const n = tilesPerSide(zoom);
  return Math.min(n - 1, Math.max(0, Math.floor(tileRowFraction(lat) * n)));
}

/** Latitude `lat`'s place down the tiling, from 0 (north edge) to 1: the row at zoom z is this x 2^z, rounded down. */
export function tileRowFraction(lat: number): number {
  const clamped = Math.max(-MERCATOR_MAX_LATITUDE, Math.min(MERCATOR_MAX_LATITUDE, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

/** How many tiles the box covers at `zoom` (both halves of a box across the antimeridian). */
export function tilesCovered(bbox: BoundingBox, zoom: number): number {
  const rows = tileY(bbox.south, zoom) - tileY(bbox.north, zoom) + 1;
  const columns =
    bbox.west <= bbox.east ? tileX(bbox.east, zoom) - tileX(bbox.west, zoom) + 1 : tilesPerSide(zoom) - tileX(bbox.west, zoom) + tileX(bbox.east, zoom) + 1;
  return rows * Math.min(columns, tilesPerSide(zoom));
}

/**
 * Where the statistics look: a commune, a postal code, a department or a box. Listings carry a postal
 * code and the official city name (the indexer takes it from the postal-code table), not an INSEE
 * code: a commune is the listings of the postal codes it has alone, and of those it shares with other
 * communes whose city is its name (folded).
 */
export type StatsArea =
  | { kind: 'commune'; insee: string; postalCodes: string[]; sharedPostalCodes: string[]; cityNames: string[] }
  | { kind: 'postalCode'; postalCode: string }
  | { kind: 'department'; department: string }
  | { kind: 'bbox'; bbox: BoundingBox }
  | { kind: 'shape'; shape: GeoArea };

/** Listings that left the market this long ago or less count as recently withdrawn. */
export const WITHDRAWN_WINDOW_DAYS = 90;
export const DAY_MS = 86_400_000;

export interface StatsQuery {
  area: StatsArea;
  /** Folded property types, any of them. */
  types?: string[];
  transaction?: TransactionType;
  roomsMin?: number;
  roomsMax?: number;
  scope: Scope;
  /** Active listings one per duplicate group (as /annonces), or every site listing. */
  grouped: boolean;
  /** Withdrawn listings with left_market_at at or after this (epoch ms). */
  withdrawnSince: number;
}

/**
 * The criteria of a stats query as conditions of the filter table (filters.ts): its type and
 * transaction filters, and the rooms between both bounds (the table's `pieces` has a lower bound only).
 */
export function statsCriteria(query: StatsQuery): FilterCondition[] {
  const conditions = filterConditions({ types: query.types, transaction: query.transaction }).map((active) => active.condition);
  if (query.roomsMin !== undefined || query.roomsMax !== undefined) {
    const rooms = FILTERS.find((entry) => entry.name === 'pieces')!.key;
    conditions.push({
      op: 'range',
      key: rooms,
      ...(query.roomsMin === undefined ? {} : { min: query.roomsMin }),
      ...(query.roomsMax === undefined ? {} : { max: query.roomsMax }),
    });
  }
  return conditions;
}

/** First quartile, median, third quartile of the values that are known, and how many they are. */
export interface Quartiles {
  count: number;
  q1: number | null;
  median: number | null;
  q3: number | null;
}

export interface StatsResult {
  active: { count: number; price: Quartiles; pricePerM2: Quartiles };
  withdrawn: {
    count: number;
    price: Quartiles;
    pricePerM2: Quartiles;
    /** From publication (or entry in the catalogue) to leaving the market, in days. */
    daysOnMarket: Quartiles;
    /** (first price - last price) / first price, in percent: positive when the price went down. */
    discountPercent: Quartiles;
  };
}

export const QUARTILES = [0.25, 0.5, 0.75] as const;

/**
 * The exact quantile q of values sorted ascending: linear interpolation between the two closest
 * ranks, at position q * (n - 1) (so the median of an even count is the mean of the middle two).
 */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const position = q * (n - 1);
  const below = Math.floor(position);
  const above = Math.min(n - 1, below + 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

/** Quartiles of unsorted values (sorted in place). */
export function quartilesOf(values: Float64Array | number[]): Quartiles {
  const sorted = values instanceof Float64Array ? values.sort() : Float64Array.from(values).sort();
  const [q1, median, q3] = QUARTILES.map((q) => quantileOfSorted(sorted, q));
  return { count: sorted.length, q1, median, q3 };
}

/** What the figures of a withdrawn listing are computed from: price, price per m², first and last price of its series, and its dates. */
export interface WithdrawnValues {
  price: number | null;
  pricePerM2: number | null;
  firstPrice: number | null;
  lastPrice: number | null;
  leftMarketAt: number;
  publishedAt: number | null;
  enteredAt: number;
}

/**
 * Exact figures of withdrawn listings. Time on market runs from the publication date the site gave
 * (or, without one, the listing's entry in the catalogue) to the pass that saw it leave; the
 * discount compares the first and the last point of its price series.
 */
export function withdrawnStats(listings: readonly WithdrawnValues[]): StatsResult['withdrawn'] {
  const values = (pick: (l: WithdrawnValues) => number | null) => {
    const known: number[] = [];
    for (const listing of listings) {
      const value = pick(listing);
      if (value !== null) known.push(value);
    }
    return quartilesOf(known);
  };
  return {
    count: listings.length,
    price: values((l) => l.price),
    pricePerM2: values((l) => l.pricePerM2),
    daysOnMarket: values((l) => Math.max(0, l.leftMarketAt - (l.publishedAt ?? l.enteredAt)) / DAY_MS),
    discountPercent: values((l) =>
      l.firstPrice !== null && l.lastPrice !== null && l.firstPrice > 0 ? ((l.firstPrice - l.lastPrice) / l.firstPrice) * 100 : null,
    ),
  };
}
