/**
 * Runs the map's statements (map/box-sql.ts) box by box: the exact total of each box (in SQL, or from
 * the in-memory copy of ix_map, map/points-in-memory.ts) and at most `limit` points, joined into one text by
 * SQLite while the texts are current. A box whose points lack a text is read again as rows, and a
 * statement naming an index dropped since it was looked up runs again once the indexes are re-read.
 */
import type { MapPointListing, StoredListing } from '../../../core/model/stored.js';
import type { MapQuery } from '../../../core/query/query.js';
import type { MapResult } from '../../../core/ports/listing-reader.js';
import { mapPointJson, type JsonText } from '../../../core/model/present.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';
import { MAP_POINT_COLUMNS } from '../rows/columns.js';
import type { MapPoints, MapPointsCache } from './points-in-memory.js';
import { buildMapBoxSql, mapCountableInMemory, splitAtAntimeridian, type MapPlan, type MapScopeQuery } from './box-sql.js';
import { MapTextListing, type ListingRow } from '../rows/listing-row.js';
import type { StoreState } from '../state/store-state.js';

export class MapReader {
  /** `countsInMemory` false: totals always counted in SQL (the tests compare both). */
  constructor(
    private readonly statements: StatementCache,
    private readonly state: StoreState,
    private readonly mapPoints: MapPointsCache,
    private readonly countsInMemory: boolean,
  ) {}

  map(query: MapQuery): MapResult {
    try {
      return mapAnswer(this.mapOnce(query));
    } catch (error) {
      // An index dropped since hasIndex last looked (a first load's bulk mode drops them): look again.
      if (!/no such index/.test((error as Error).message)) throw error;
      this.state.forgetIndexes();
      return mapAnswer(this.mapOnce(query));
    }
  }

  /** Reads the in-memory copy of the default map's points now instead of at the first map request. */
  async readMapPoints(): Promise<void> {
    if (!this.countsInMemory || !this.state.hasIndex('ix_map')) return;
    this.mapPoints.current();
    await this.mapPoints.settled();
  }

  /** The default map's points in memory while they are current, when the query reads them unfiltered; else null. */
  pointsInMemory(query: MapScopeQuery): MapPoints | null {
    return mapCountableInMemory(query) && this.countsInMemory && this.state.hasIndex('ix_map') ? this.mapPoints.current() : null;
  }

  /** `joinTexts` false: every point read as a row (after a box whose points lack a text). */
  private mapOnce(query: MapQuery, joinTexts = true): MapRead {
    const inMemory = this.pointsInMemory(query);
    // A store opened before `reindex` built ix_map_points (schema/migrations.ts schemaForOpen) reads the texts from the rows;
    // while a first load runs in bulk mode (write/bulk-load.ts) neither index exists and the planner picks a plan.
    const countIndex = this.state.hasIndex('ix_map') ? 'ix_map' : null;
    const plan: MapPlan = {
      countInMemory: inMemory !== null,
      countIndex,
      pointsIndex: this.state.hasIndex('ix_map_points') ? 'ix_map_points' : countIndex,
      presented: this.state.publicJsonCurrent(),
      joinTexts,
    };
    let total = 0;
    const points: MapPointListing[] = [];
    const joined = { count: 0, texts: [] as Buffer[] };
    for (const box of splitAtAntimeridian(query.bbox)) {
      const room = query.limit - points.length - joined.count;
      const sql = buildMapBoxSql(query, plan, box, room);
      total +=
        sql.count === null ? inMemory!.count(box, query.scope.enteredFrom) : (this.statements.get(sql.count.sql).get(...sql.count.params) as { n: number }).n;
      if (room <= 0) continue;
      const statement = this.statements.get(sql.points.sql);
      if (sql.points.read === 'joined') {
        const row = statement.get(...sql.points.params) as { n: number; texts: number; json: Buffer | null };
        // Some point has no text (written while the texts were stale): all of them as rows.
        if (row.n !== row.texts) return this.mapOnce(query, false);
        joined.count += row.n;
        if (row.json !== null) joined.texts.push(row.json);
      } else if (sql.points.read === 'texts') {
        const rows = statement.all(...sql.points.params) as { rowid: number; map_json: Buffer | null }[];
        for (const row of rows) points.push(row.map_json === null ? this.mapPointOf(row.rowid) : new MapTextListing(row.map_json));
      } else {
        points.push(...(statement.all(...sql.points.params) as MapPointRow[]).map(mapPointFromRow));
      }
    }
    if (!(plan.presented && joinTexts)) return { total, points };
    return { total, joined };
  }

  /** The map points of listings by id, read from their columns (the lone listings of cluster cells). */
  pointsOf(ids: readonly string[]): Map<string, JsonText> {
    const rows = this.statements
      .get(`SELECT ${MAP_POINT_COLUMNS} FROM listings l WHERE l.id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(ids)) as MapPointRow[];
    return new Map(rows.map((row) => [row.id, mapPointJson(mapPointFromRow(row))]));
  }

  /** A point without its text (a row written while the texts were stale), from its columns. */
  private mapPointOf(rowid: number): MapPointListing {
    return mapPointFromRow(this.statements.get(`SELECT ${MAP_POINT_COLUMNS} FROM listings l WHERE l.rowid = ?`).get(rowid) as MapPointRow);
  }
}

/**
 * The points of a box as mapOnce reads them: as rows, or as their texts already joined by SQLite
 * (`joined`, from the covering index ix_map_points), which the port's answer hands on as they are.
 */
type MapRead = { total: number; points: MapPointListing[] } | { total: number; joined: { count: number; texts: Buffer[] } };

/** The port's answer: the joined texts as they are, or one text per point read as a row. */
function mapAnswer(read: MapRead): MapResult {
  if ('joined' in read) return { total: read.total, count: read.joined.count, texts: read.joined.texts };
  return { total: read.total, count: read.points.length, texts: read.points.map(mapPointJson) };
}

type MapPointRow = Pick<ListingRow, 'id' | 'source' | 'lat' | 'lon' | 'price' | 'price_per_m2' | 'surface' | 'rooms' | 'title' | 'postal_code'> & {
  extra: string;
};

/** A map point from its columns (MAP_POINT_COLUMNS): what presentMapPoint shows. */
function mapPointFromRow(row: MapPointRow): MapPointListing {
  const [reference, priceColor, type, city, image, isInternal] = JSON.parse(row.extra) as [
    string,
    string | null,
    string,
    string | null,
    string | null,
    boolean,
  ];
  const content = {
    source: row.source,
    reference,
    latitude: row.lat,
    longitude: row.lon,
    price: row.price,
    price_per_m2: row.price_per_m2,
    surface: row.surface,
    price_per_m2_color: priceColor,
    type,
    title: row.title,
    city,
    postal_code: row.postal_code,
    images: image === null ? [] : [image],
    rooms: row.rooms,
    is_internal: isInternal,
  } as unknown as StoredListing['content'];
  return { id: row.id, content };
}
