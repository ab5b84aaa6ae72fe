/**
 * A capped map that covers its box (docs/api.md "Map sampling"): when a box holds more listings than
 * the map returns, the box is cut into a grid of cells and each cell gets points in proportion to
 * its listings (largest remainders), read in the engine's own stable order within the cell. So a
 * dense city does not crowd out the countryside, nor the south of the box the north.
 *
 * Each engine reads the whole box first (its total, and its points when not capped), then each cell's
 * total and each cell's points up to its quota, with the pure pieces here.
 *
 * Inner cell edges lie on half-thousandths of a degree: stored coordinates have three decimals, so no
 * point lies on an inner edge and the cells (whose edges are inclusive, as the map's) never share
 * one; the sum of the cells' totals is the box's.
 */
import type { MapResult } from '../ports/listing-reader.js';
import type { BoundingBox, MapQuery } from './query.js';

/** Cells per side of the sampling grid. */
export const SAMPLING_GRID = 10;

/** Edges from `from` to `to` cutting it in `parts`, the inner ones moved onto a half-thousandth. */
function edges(from: number, to: number, parts: number): number[] | null {
  const inner = Array.from({ length: parts - 1 }, (_, i) => Math.floor((from + ((to - from) * (i + 1)) / parts) * 1000) / 1000 + 0.0005);
  const all = [from, ...inner.map((edge) => Number(edge.toFixed(4))), to];
  return all.every((edge, i) => i === 0 || edge > all[i - 1]) ? all : null;
}

const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon);

/**
 * The edges of a box's grid: latitudes south to north, longitudes west to east, outer edges included;
 * across the antimeridian the longitudes east of it are counted on from 180 (east + 360). Null when
 * the box is too small to cut. Cell `r * grid + c` lies between rows[r], rows[r + 1] and columns[c],
 * columns[c + 1], as samplingCells lists them.
 */
export function samplingEdges(bbox: BoundingBox, grid = SAMPLING_GRID): { rows: number[]; columns: number[] } | null {
  const east = bbox.west <= bbox.east ? bbox.east : bbox.east + 360;
  const rows = edges(bbox.south, bbox.north, grid);
  const columns = edges(bbox.west, east, grid);
  return rows && columns ? { rows, columns } : null;
}

/** The cells of a box, south to north then west to east; null when the box is too small to cut. */
export function samplingCells(bbox: BoundingBox, grid = SAMPLING_GRID): BoundingBox[] | null {
  const cut = samplingEdges(bbox, grid);
  if (!cut) return null;
  const { rows, columns } = cut;
  const cells: BoundingBox[] = [];
  for (let r = 0; r < grid; r++) {
    for (let c = 0; c < grid; c++) {
      // A cell's west edge is never its east one, so a wrapped east edge can only mean the antimeridian.
      const cellWest = c === 0 ? bbox.west : wrap(columns[c]);
      const cellEast = c === grid - 1 ? bbox.east : wrap(columns[c + 1]);
      cells.push({ south: rows[r], north: rows[r + 1], west: cellWest, east: cellEast });
    }
  }
  return cells;
}

/** Points per cell: proportional to its listings, the remainders to the largest fractions (then the first cells). */
export function cellQuotas(totals: readonly number[], limit: number): number[] {
  const sum = totals.reduce((s, n) => s + n, 0);
  if (sum <= limit) return [...totals];
  const exact = totals.map((n) => (n * limit) / sum);
  const quotas = exact.map(Math.floor);
  const left = limit - quotas.reduce((s, n) => s + n, 0);
  const byFraction = exact.map((value, index) => ({ index, fraction: value - Math.floor(value) })).sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const { index } of byFraction.slice(0, left)) quotas[index] += 1;
  return quotas;
}

/** Whether a map read needs sampling: its box holds more listings than it returns, and can be cut. */
export function cellsToSample(query: MapQuery, whole: MapResult): BoundingBox[] | null {
  return whole.total > query.limit ? samplingCells(query.bbox) : null;
}

/** The sampled answer: the box's total, and the points of the cells read up to their quotas. */
export function sampledResult(total: number, cellReads: readonly MapResult[]): MapResult {
  return {
    total,
    count: cellReads.reduce((sum, part) => sum + part.count, 0),
    texts: cellReads.flatMap((part) => part.texts),
    sampling: { grid: SAMPLING_GRID },
  };
}
