/**
 * The clusters of the default map (grouped, every site, no filter) from the points held in memory
 * (map/points-in-memory.ts), for a whole-France box at a low zoom: SQLite would read every listing of the box as
 * a row, give it its tile and join each tile's prices into a text. Here one pass over the box's
 * points counts each tile in typed arrays (one slot per tile the box covers: at most
 * MAX_CLUSTER_TILES), a second puts each tile's prices side by side, and the exact median is selected
 * in place, without sorting. The figures are the SQL path's (map/clusters-sql.ts): the same tiles, counts,
 * centroids, lowest price and median.
 */
import { tileX, tileY, tilesCovered, tilesPerSide, type ClusterCell } from '../../../core/query/aggregates.js';
import type { BoundingBox } from '../../../core/query/query.js';
import { splitAtAntimeridian } from './box-sql.js';
import type { MapPoints } from './points-in-memory.js';

/** A tile's figures; `loneRowid`: the rowid of its listing when it holds one (the store reads its id). */
export type TileFigures = Omit<ClusterCell, 'zoom' | 'id' | 'point'> & { loneRowid: number | null };

/** Past this many tiles the typed arrays would cost more than the pass: the SQL path answers. */
const MAX_TILE_SLOTS = 1 << 20;

/** The tiles of the box's points entered at or after `enteredFrom`, by row then column; null when the box covers too many tiles. */
export function tilesInMemory(points: MapPoints, bbox: BoundingBox, zoom: number, enteredFrom: number): TileFigures[] | null {
  const side = tilesPerSide(zoom);
  const slots = tilesCovered(bbox, zoom);
  if (slots > MAX_TILE_SLOTS) return null;
  // Slot of tile (x, y): columns counted from the box's west column, round the antimeridian.
  const firstColumn = tileX(bbox.west, zoom);
  const firstRow = tileY(bbox.north, zoom);
  const width = Math.min(side, bbox.west <= bbox.east ? tileX(bbox.east, zoom) - firstColumn + 1 : side - firstColumn + tileX(bbox.east, zoom) + 1);
  const tally = new Tally(slots, points.size);
  const { lat, lon, enteredAt, price, rowid } = points.columns;
  const rowFraction = points.tileRowFraction;
  for (const box of splitAtAntimeridian(bbox)) {
    points.eachRun(box, (from, to, inner) => {
      for (let i = from; i < to; i++) {
        const y = lat[i];
        const x = lon[i];
        if (!inner && !(y >= box.south && y <= box.north && x >= box.west && x <= box.east)) continue;
        if (enteredAt[i] < enteredFrom) continue;
        // tileX and tileY of aggregates.ts, inlined for the half a million points of a large box.
        const column = Math.min(side - 1, Math.max(0, Math.floor(((x + 180) / 360) * side)));
        const row = Math.min(side - 1, Math.max(0, Math.floor(rowFraction[i] * side)));
        tally.add((row - firstRow) * width + ((column - firstColumn + side) % side), y, x, price[i], rowid[i]);
      }
    });
  }
  return tally.figures((slot) => ({ x: (firstColumn + (slot % width)) % side, y: firstRow + Math.floor(slot / width) }));
}

/**
 * The priced points a request took, kept between requests and grown when a box holds more: the
 * clusters are computed synchronously, one request at a time, and a whole-France box takes half a
 * million points, whose fresh arrays cost more in zeroing and garbage collection than the pass.
 */
const scratch = { price: new Float64Array(0), slot: new Int32Array(0), sorted: new Float64Array(0) };

function scratchFor(points: number): typeof scratch {
  if (scratch.price.length < points) {
    scratch.price = new Float64Array(points);
    scratch.slot = new Int32Array(points);
    scratch.sorted = new Float64Array(points);
  }
  return scratch;
}

/** Per-slot sums of one request, and the prices it took with their slots (placed side by side once the counts are known). */
class Tally {
  private readonly count: Int32Array;
  private readonly priced: Int32Array;
  private readonly sumLat: Float64Array;
  private readonly sumLon: Float64Array;
  private readonly priceMin: Float64Array;
  private readonly lastRowid: Float64Array;
  private readonly south: Float64Array;
  private readonly north: Float64Array;
  private readonly west: Float64Array;
  private readonly east: Float64Array;
  private readonly taken: typeof scratch;
  private takenCount = 0;

  constructor(slots: number, points: number) {
    this.count = new Int32Array(slots);
    this.priced = new Int32Array(slots);
    this.sumLat = new Float64Array(slots);
    this.sumLon = new Float64Array(slots);
    this.priceMin = new Float64Array(slots).fill(Number.POSITIVE_INFINITY);
    this.lastRowid = new Float64Array(slots);
    this.south = new Float64Array(slots).fill(Number.POSITIVE_INFINITY);
    this.north = new Float64Array(slots).fill(Number.NEGATIVE_INFINITY);
    this.west = new Float64Array(slots).fill(Number.POSITIVE_INFINITY);
    this.east = new Float64Array(slots).fill(Number.NEGATIVE_INFINITY);
    this.taken = scratchFor(points);
  }

  add(slot: number, lat: number, lon: number, price: number, rowid: number): void {
    this.count[slot]++;
    this.sumLat[slot] += lat;
    this.sumLon[slot] += lon;
    this.lastRowid[slot] = rowid;
    this.south[slot] = Math.min(this.south[slot], lat);
    this.north[slot] = Math.max(this.north[slot], lat);
    this.west[slot] = Math.min(this.west[slot], lon);
    this.east[slot] = Math.max(this.east[slot], lon);
    if (!Number.isNaN(price)) {
      this.priced[slot]++;
      if (price < this.priceMin[slot]) this.priceMin[slot] = price;
      this.taken.price[this.takenCount] = price;
      this.taken.slot[this.takenCount++] = slot;
    }
  }

  figures(tileOf: (slot: number) => { x: number; y: number }): TileFigures[] {
    // Each slot's prices side by side: slot s's at starts[s] .. starts[s + 1] - 1.
    const starts = new Int32Array(this.priced.length + 1);
    for (let s = 0; s < this.priced.length; s++) starts[s + 1] = starts[s] + this.priced[s];
    const next = starts.slice(0, -1);
    const { price, slot, sorted: prices } = this.taken;
    for (let k = 0; k < this.takenCount; k++) prices[next[slot[k]]++] = price[k];
    const tiles: TileFigures[] = [];
    for (let s = 0; s < this.count.length; s++) {
      const n = this.count[s];
      if (n === 0) continue;
      tiles.push({
        ...tileOf(s),
        count: n,
        lat: this.sumLat[s] / n,
        lon: this.sumLon[s] / n,
        priceMin: this.priced[s] === 0 ? null : this.priceMin[s],
        priceMedian: medianInPlace(prices.subarray(starts[s], starts[s + 1])),
        loneRowid: n === 1 ? this.lastRowid[s] : null,
        bounds: { south: this.south[s], west: this.west[s], north: this.north[s], east: this.east[s] },
      });
    }
    return tiles.sort((a, b) => a.y - b.y || a.x - b.x);
  }
}

/**
 * The median of `values` as quantileOfSorted computes it (the mean of the middle two for an even
 * count), found by selection: the values are reordered.
 */
export function medianInPlace(values: Float64Array): number | null {
  const n = values.length;
  if (n === 0) return null;
  const position = 0.5 * (n - 1);
  const below = Math.floor(position);
  const low = selectInPlace(values, below);
  if (below + 1 >= n) return low;
  // After selection every value past `below` is at least `low`: the next rank is their least.
  let high = Number.POSITIVE_INFINITY;
  for (let i = below + 1; i < n; i++) if (values[i] < high) high = values[i];
  return low + (position - below) * (high - low);
}

/** The k-th smallest of `values` (0-based), which ends at index k with the smaller ones before it and the others after (Hoare's selection). */
function selectInPlace(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (right > left) {
    // Median of three as the pivot: sorted input stays linear.
    const middle = (left + right) >>> 1;
    const pivot = medianOfThree(values[left], values[middle], values[right]);
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k];
}

function medianOfThree(a: number, b: number, c: number): number {
  return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
}
