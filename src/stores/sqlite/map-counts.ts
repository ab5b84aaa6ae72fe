/**
 * Exact totals of the default map (grouped, every site, no filter) from the coordinates of `ix_map`
 * held in typed arrays.
 *
 * `/annonces/map` promises the exact number of listings in the box. Asked of SQLite, that count walks
 * the `ix_map` entries of the box's latitude band and checks each one's longitude and access date:
 * about 50 ns an entry, 32 ms for a whole-France box at a million listings, most of that request's
 * time. The same walk over three Float64Arrays sorted by latitude is a binary search and a loop of a
 * few ns an entry (24 bytes per point: 15 MB for 628 000 points).
 *
 * Exact, never stale: the arrays serve only while the store is as it was when they were read (the
 * same stamp as text-sets.ts: `data_version`, which changes when another connection commits, with
 * this connection's `total_changes()`); otherwise the count is asked of SQLite.
 */
import type Database from 'better-sqlite3';
import type { BoundingBox } from '../../listings/query.js';

/**
 * The arrays are read again at most this often. Reading them takes about as long as a handful of
 * whole-France counts in SQL; while the indexer commits every second, rebuilding on every change
 * would cost more than it saves, so the counts in between are asked of SQLite.
 */
const REREAD_MIN_MS = 10_000;

/** The points of `ix_map` (vis = 2, with coordinates), sorted by latitude as the index is. */
export class MapPoints {
  constructor(
    private readonly lat: Float64Array,
    private readonly lon: Float64Array,
    private readonly enteredAt: Float64Array,
  ) {}

  get size(): number { return this.lat.length; }

  /** Points with south <= lat <= north, west <= lon <= east (west <= east) and entered_at >= enteredFrom. */
  count(box: BoundingBox, enteredFrom: number): number {
    const { lat, lon, enteredAt } = this;
    let n = 0;
    for (let i = this.firstAtOrAbove(box.south); i < lat.length && lat[i] <= box.north; i++) {
      const x = lon[i];
      if (x >= box.west && x <= box.east && enteredAt[i] >= enteredFrom) n++;
    }
    return n;
  }

  /** Index of the first point whose latitude is >= `south` (binary search). */
  private firstAtOrAbove(south: number): number {
    let low = 0;
    let high = this.lat.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.lat[middle] < south) low = middle + 1; else high = middle;
    }
    return low;
  }

  /** Reads the points from `ix_map` (its entries only: lat, lon and entered_at are its columns). */
  static read(db: Database.Database): MapPoints {
    const { n } = db.prepare('SELECT count(*) AS n FROM listings INDEXED BY ix_map WHERE vis = 2 AND lat IS NOT NULL AND lon IS NOT NULL')
      .get() as { n: number };
    const lat = new Float64Array(n);
    const lon = new Float64Array(n);
    const enteredAt = new Float64Array(n);
    const rows = db.prepare(`SELECT lat, lon, entered_at FROM listings INDEXED BY ix_map
      WHERE vis = 2 AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY lat`).raw();
    let i = 0;
    // Both statements run in the caller's transaction, so the count and the rows agree.
    for (const row of rows.iterate() as IterableIterator<[number, number, number]>) {
      lat[i] = row[0];
      lon[i] = row[1];
      enteredAt[i] = row[2];
      i++;
    }
    return new MapPoints(lat, lon, enteredAt);
  }
}

export class MapPointsCache {
  private points: MapPoints | null = null;
  private stamp = '';
  private readAt = -Infinity;
  private readonly stampStatement: Database.Statement;

  constructor(private readonly db: Database.Database, private readonly rereadMinMs = REREAD_MIN_MS) {
    this.stampStatement = db.prepare('SELECT data_version || \':\' || total_changes() AS stamp FROM pragma_data_version');
  }

  /**
   * The points as the store is now, read again if it changed and the last read is older than
   * `rereadMinMs`; null when they are stale and may not be read yet (count in SQL then). Call it
   * right before counting, in the same tick.
   */
  current(now = Date.now()): MapPoints | null {
    const stamp = (this.stampStatement.get() as { stamp: string }).stamp;
    if (this.points !== null && stamp === this.stamp) return this.points;
    this.points = null;
    if (now - this.readAt < this.rereadMinMs) return null;
    this.readAt = now;
    // One read transaction: the count that sizes the arrays and the rows are the same snapshot, and
    // the stamp read inside it is the store the arrays describe.
    const read = this.db.transaction(() => {
      const points = MapPoints.read(this.db);
      return { points, stamp: (this.stampStatement.get() as { stamp: string }).stamp };
    });
    const { points, stamp: readStamp } = read.deferred();
    this.points = points;
    this.stamp = readStamp;
    return points;
  }
}
