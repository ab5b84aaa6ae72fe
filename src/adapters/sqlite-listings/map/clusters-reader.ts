/**
 * GET /annonces/map/clusters on SQLite: from the default map's points in memory when the query reads
 * them unfiltered and they are current (map/clusters-in-memory.ts), else with one statement (map/clusters-sql.ts).
 * Both give the same cells; the memory path names a lone listing by rowid, its id is read here, and
 * so is each lone listing's map point.
 */
import type { ClusterCell, ClustersQuery, ClustersResult } from '../../../core/query/aggregates.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';
import type { JsonText } from '../../../core/model/present.js';
import { buildClustersSql, clusterCells, type ClusterRow } from './clusters-sql.js';
import { tilesInMemory, type TileFigures } from './clusters-in-memory.js';
import type { MapReader } from './reader.js';

const IDS_OF_ROWIDS = 'SELECT rowid, id FROM listings WHERE rowid IN (SELECT value FROM json_each(?))';

export class ClustersReader {
  constructor(
    private readonly statements: StatementCache,
    private readonly mapReader: MapReader,
  ) {}

  clusters(query: ClustersQuery): ClustersResult {
    const points = this.mapReader.pointsInMemory(query);
    const tiles = points && tilesInMemory(points, query.bbox, query.zoom, query.scope.enteredFrom);
    const cells = tiles ? this.cellsOf(tiles, query.zoom) : this.cellsInSql(query);
    return { total: cells.reduce((sum, cell) => sum + cell.count, 0), cells: this.withLonePoints(cells) };
  }

  /** Each lone listing's map point, read once for all the cells. */
  private withLonePoints(cells: Omit<ClusterCell, 'point'>[]): ClusterCell[] {
    const lone = cells.flatMap((cell) => (cell.id === null ? [] : [cell.id]));
    const points = lone.length ? this.mapReader.pointsOf(lone) : new Map<string, JsonText>();
    return cells.map((cell) => ({ ...cell, point: cell.id === null ? null : (points.get(cell.id) ?? null) }));
  }

  private cellsInSql(query: ClustersQuery): Omit<ClusterCell, 'point'>[] {
    const { sql, params } = buildClustersSql(query);
    return clusterCells(this.statements.get(sql).all(...params) as ClusterRow[], query.zoom);
  }

  private cellsOf(tiles: TileFigures[], zoom: number): Omit<ClusterCell, 'point'>[] {
    const lone = tiles.flatMap((tile) => (tile.loneRowid === null ? [] : [tile.loneRowid]));
    const ids = new Map<number, string>();
    if (lone.length > 0) {
      const rows = this.statements.get(IDS_OF_ROWIDS).raw().all(JSON.stringify(lone)) as [number, string][];
      for (const [rowid, id] of rows) ids.set(rowid, id);
    }
    return tiles.map(({ loneRowid, ...tile }) => ({ zoom, ...tile, id: loneRowid === null ? null : (ids.get(loneRowid) ?? null) }));
  }
}
