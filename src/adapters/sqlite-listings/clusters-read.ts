/**
 * GET /annonces/map/clusters on SQLite: from the default map's points in memory when the query reads
 * them unfiltered and they are current (map-clusters.ts), else with one statement (clusters-sql.ts).
 * Both give the same cells; the memory path names a lone listing by rowid, its id is read here.
 */
import type { ClusterCell, ClustersQuery, ClustersResult } from '../../core/query/aggregates.js';
import type { StatementCache } from '../sqlite-shared/statements.js';
import { buildClustersSql, clusterCells, type ClusterRow } from './clusters-sql.js';
import { tilesInMemory, type TileFigures } from './map-clusters.js';
import type { MapReader } from './map-read.js';

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
    return { total: cells.reduce((sum, cell) => sum + cell.count, 0), cells };
  }

  private cellsInSql(query: ClustersQuery): ClusterCell[] {
    const { sql, params } = buildClustersSql(query);
    return clusterCells(this.statements.get(sql).all(...params) as ClusterRow[], query.zoom);
  }

  private cellsOf(tiles: TileFigures[], zoom: number): ClusterCell[] {
    const lone = tiles.flatMap((tile) => (tile.loneRowid === null ? [] : [tile.loneRowid]));
    const ids = new Map<number, string>();
    if (lone.length > 0) {
      const rows = this.statements.get(IDS_OF_ROWIDS).raw().all(JSON.stringify(lone)) as [number, string][];
      for (const [rowid, id] of rows) ids.set(rowid, id);
    }
    return tiles.map(({ loneRowid, ...tile }) => ({ zoom, ...tile, id: loneRowid === null ? null : (ids.get(loneRowid) ?? null) }));
  }
}
