/**
 * The default map's points (grouped, every site, no filter) from `ix_map`, held in typed arrays: the
 * map's exact totals and the clusters (map/clusters-in-memory.ts) are computed from them.
 *
 * `/annonces/map` promises the exact number of listings in the box. Asked of SQLite, that count walks
 * the `ix_map` entries of the box's latitude band and checks each one's longitude and access date:
 * one entry at a time, so a whole-France box spends most of its request counting. Here the points are
 * on a grid in typed arrays (56 bytes per point): whole cells are added up, only the box's edge cells
 * are walked. The clusters walk the box's points once, without SQLite's per-row cost.
 *
 * Exact, never stale: the arrays serve only while the store is as it was when they were read
 * (state/stamp.ts); otherwise the count is asked of SQLite.
 */
import type Database from 'better-sqlite3';
import { storeStamp } from '../state/stamp.js';
import { tileRowFraction } from '../../../core/query/aggregates.js';
import type { BoundingBox } from '../../../core/query/query.js';

/**
 * A stale copy is read again at most this often: while the indexer commits every second or so, a
 * read would never finish on an unchanged store, and the counts in between are asked of SQLite.
 */
const REREAD_MIN_MS = 10_000;

/** Smallest grid cell, in degrees (about 5.5 km of latitude): finer cells hold too few points to pay. */
const MIN_CELL_DEGREES = 0.05;

/**
 * The points of `ix_map` (vis = 2, with coordinates) on a grid of square cells, each cell's points
 * together. A box's count adds, for each cell strictly inside the box's rows and columns, the cell's
 * points entered at or after the access date (a binary search in the cell's sorted entry times);
 * only the points of the cells on the box's edges are checked one by one. The grid has at most about
 * as many cells as points, so no box walks more cells than there are points.
 */
/** The columns read of each point; `price` is NaN where the listing has none. */
export interface PointColumns {
  lat: Float64Array;
  lon: Float64Array;
  enteredAt: Float64Array;
  price: Float64Array;
  rowid: Float64Array;
}

/** Called for the points at offsets from .. to - 1 of one grid cell; `inner`: all of them lie inside the box. */
export type RunVisitor = (from: number, to: number, inner: boolean) => void;

export class MapPoints {
  private constructor(
    private readonly grid: { minLat: number; minLon: number; cell: number; rows: number; cols: number },
    /** Cell c's points are at offsets[c] .. offsets[c + 1] - 1 of the columns. */
    private readonly offsets: Int32Array,
    /** The points, in grid order. */
    readonly columns: PointColumns,
    /** Each point's web-map row as a fraction of the tiling's height (clusters: the row at zoom z is floor(value x 2^z)). */
    readonly tileRowFraction: Float64Array,
    /** The entry times, each cell's run sorted. */
    private readonly enteredSorted: Float64Array,
  ) {}

  get size(): number {
    return this.columns.lat.length;
  }

  /** Points with south <= lat <= north, west <= lon <= east (west <= east) and entered_at >= enteredFrom. */
  count(box: BoundingBox, enteredFrom: number): number {
    const { lat, lon, enteredAt } = this.columns;
    let n = 0;
    this.eachRun(box, (from, to, inner) => {
      if (inner) {
        n += to - this.firstEnteredAtOrAfter(from, to, enteredFrom);
        return;
      }
      for (let i = from; i < to; i++) {
        const y = lat[i];
        const x = lon[i];
        if (y >= box.south && y <= box.north && x >= box.west && x <= box.east && enteredAt[i] >= enteredFrom) n++;
      }
    });
    return n;
  }

  /**
   * Visits the runs of the grid cells that overlap the box (west <= east). A run is `inner` when its
   * cell's row and column are strictly between the box's edge rows and columns: exact, not approximate,
   * since the cell index is a monotonic function of the coordinate. Only the edge runs need their
   * points checked one by one.
   */
  eachRun(box: BoundingBox, visit: RunVisitor): void {
    const { grid, offsets } = this;
    if (this.size === 0) return;
    const rowLo = Math.max(0, this.row(box.south));
    const rowHi = Math.min(grid.rows - 1, this.row(box.north));
    const colLo = Math.max(0, this.col(box.west));
    const colHi = Math.min(grid.cols - 1, this.col(box.east));
    for (let r = rowLo; r <= rowHi; r++) {
      const innerRow = r > rowLo && r < rowHi;
      for (let c = colLo; c <= colHi; c++) {
        const cell = r * grid.cols + c;
        const from = offsets[cell];
        const to = offsets[cell + 1];
        if (from !== to) visit(from, to, innerRow && c > colLo && c < colHi);
      }
    }
  }

  private row(latitude: number): number {
    return Math.floor((latitude - this.grid.minLat) / this.grid.cell);
  }
  private col(longitude: number): number {
    return Math.floor((longitude - this.grid.minLon) / this.grid.cell);
  }

  /** Offset of the first entry time >= `at` in the sorted run from .. to - 1 (binary search). */
  private firstEnteredAtOrAfter(from: number, to: number, at: number): number {
    const sorted = this.enteredSorted;
    if (sorted[from] >= at) return from;
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle] < at) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Puts the points on the grid (a counting sort by cell). */
  static onGrid(points: PointColumns): MapPoints {
    const { lat, lon } = points;
    const n = lat.length;
    let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let i = 0; i < n; i++) {
      minLat = Math.min(minLat, lat[i]);
      maxLat = Math.max(maxLat, lat[i]);
      minLon = Math.min(minLon, lon[i]);
      maxLon = Math.max(maxLon, lon[i]);
    }
    if (n === 0) [minLat, maxLat, minLon, maxLon] = [0, 0, 0, 0];
    // Cells of side `cell`, at most about n of them over the points' extent.
    const extent = Math.max(maxLat - minLat, MIN_CELL_DEGREES) * Math.max(maxLon - minLon, MIN_CELL_DEGREES);
    const cell = Math.max(MIN_CELL_DEGREES, Math.sqrt(extent / Math.max(n, 1)));
    const grid = { minLat, minLon, cell, rows: Math.floor((maxLat - minLat) / cell) + 1, cols: Math.floor((maxLon - minLon) / cell) + 1 };
    const cellOf = new Int32Array(n);
    const offsets = new Int32Array(grid.rows * grid.cols + 1);
    for (let i = 0; i < n; i++) {
      cellOf[i] = Math.floor((lat[i] - minLat) / cell) * grid.cols + Math.floor((lon[i] - minLon) / cell);
      offsets[cellOf[i] + 1]++;
    }
    for (let c = 1; c < offsets.length; c++) offsets[c] += offsets[c - 1];
    const next = offsets.slice(0, -1);
    const names = Object.keys(points) as (keyof PointColumns)[];
    const onGrid = Object.fromEntries(names.map((name) => [name, new Float64Array(n)])) as unknown as PointColumns;
    for (let i = 0; i < n; i++) {
      const at = next[cellOf[i]]++;
      for (const name of names) onGrid[name][at] = points[name][i];
    }
    const enteredSorted = onGrid.enteredAt.slice();
    for (let c = 0; c + 1 < offsets.length; c++) {
      if (offsets[c + 1] - offsets[c] > 1) enteredSorted.subarray(offsets[c], offsets[c + 1]).sort();
    }
    return new MapPoints(grid, offsets, onGrid, onGrid.lat.map(tileRowFraction), enteredSorted);
  }
}

/** Rows of `ix_map` read per turn of the event loop: small enough that a request waits little behind a slice. */
const ROWS_PER_SLICE = 20_000;

const POINT_ROWS = `SELECT lat, lon, entered_at, rowid, price FROM listings INDEXED BY ix_map
  WHERE vis = 2 AND lat IS NOT NULL AND lon IS NOT NULL`;

export class MapPointsCache {
  private points: MapPoints | null = null;
  private stamp = '';
  private readStartedAt = -Infinity;
  private reading: Promise<void> | null = null;
  private readonly readStamp: () => string;
  /** Prepared at the first read: a store opened while its first build runs has no ix_map yet. */
  private slices: { first: Database.Statement; next: Database.Statement } | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly rereadMinMs = REREAD_MIN_MS,
    private readonly rowsPerSlice = ROWS_PER_SLICE,
  ) {
    this.readStamp = storeStamp(db);
  }

  /**
   * The points as the store is now, or null when there is no current copy (count in SQL then). A
   * missing or stale copy starts a read, at most once per `rereadMinMs`. Call it right before
   * counting, in the same tick.
   */
  current(now = Date.now()): MapPoints | null {
    if (this.points !== null && this.readStamp() === this.stamp) return this.points;
    this.points = null;
    if (this.reading === null && now - this.readStartedAt >= this.rereadMinMs) {
      this.readStartedAt = now;
      // A failed read (the store closed meanwhile) leaves no copy: the counts stay in SQL.
      this.reading = this.read()
        .catch(() => undefined)
        .finally(() => {
          this.reading = null;
        });
    }
    return null;
  }

  /** Resolves once the read in progress, if any, is over (start-up and tests). */
  async settled(): Promise<void> {
    await this.reading;
  }

  /**
   * Reads the points a slice per turn of the event loop, so that the requests in between are not
   * held up (the whole read takes seconds at 1M, most of it reading each point's price from its row). The copy carries the stamp of the read's start, so
   * if the store changed while it was read (slices of different states could miss or repeat a point)
   * it is never current; the read also stops at the first change it sees. During a load the copy is
   * then never current and SQL counts.
   */
  private async read(): Promise<void> {
    const stamp = this.readStamp();
    /** lat, lon, entered_at, rowid (the last row of a slice is where the next one starts), price. */
    type PointRow = [number, number, number, number, number | null];
    this.slices ??= {
      first: this.db.prepare(`${POINT_ROWS} ORDER BY lat, lon, entered_at, rowid LIMIT ${this.rowsPerSlice}`).raw(),
      next: this.db
        .prepare(`${POINT_ROWS} AND (lat, lon, entered_at, rowid) > (?, ?, ?, ?)
        ORDER BY lat, lon, entered_at, rowid LIMIT ${this.rowsPerSlice}`)
        .raw(),
    };
    const { first, next } = this.slices;
    const slices: PointRow[][] = [];
    let last: [number, number, number, number] | null = null;
    for (;;) {
      const rows = (last === null ? first.all() : next.all(...last)) as PointRow[];
      slices.push(rows);
      if (rows.length < this.rowsPerSlice) break;
      const [lat, lon, enteredAt, rowid] = rows[rows.length - 1];
      last = [lat, lon, enteredAt, rowid];
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.readStamp() !== stamp) return;
    }
    const n = slices.reduce((sum, rows) => sum + rows.length, 0);
    const columns: PointColumns = {
      lat: new Float64Array(n),
      lon: new Float64Array(n),
      enteredAt: new Float64Array(n),
      price: new Float64Array(n),
      rowid: new Float64Array(n),
    };
    let i = 0;
    for (const rows of slices) {
      for (const row of rows) {
        columns.lat[i] = row[0];
        columns.lon[i] = row[1];
        columns.enteredAt[i] = row[2];
        columns.rowid[i] = row[3];
        columns.price[i] = row[4] ?? Number.NaN;
        i++;
      }
    }
    this.points = MapPoints.onGrid(columns);
    this.stamp = stamp;
  }
}
