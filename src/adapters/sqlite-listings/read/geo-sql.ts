/**
 * The `polygone` and `centre`/`rayon_km` areas on SQLite (src/core/query/geo.ts): the R*Tree of the
 * listings' points gives those in boxes around the area, then `geo_within` keeps exactly those in the
 * area, in JavaScript with the geometry shared with the tests. The boxes are matched by overlap: the
 * R*Tree rounds its 32-bit bounds outwards, so a containment test could miss a point on a box's edge.
 */
import type Database from 'better-sqlite3';
import { areaBoxes, distanceMeters, inArea, inParts, polygonParts, type GeoArea, type LatLon } from '../../../core/query/geo.js';
import type { SqlPart } from './sql-part.js';

/** Conditions keeping the listings of the area (none without coordinates), led by the R*Tree. */
export function areaConditions(area: GeoArea, alias = 'l'): SqlPart {
  const boxes = areaBoxes(area);
  const inBox = 'SELECT id FROM listings_rtree WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?';
  const within = withinCondition(area, alias);
  return {
    where: [`${alias}.rowid IN (${boxes.map(() => inBox).join(' UNION ALL ')})`, ...within.where],
    params: [...boxes.flatMap((box) => [box.south, box.north, box.west, box.east]), ...within.params],
  };
}

/** The exact test of the area on each row's coordinates alone (rows another condition leads to). */
export function withinCondition(area: GeoArea, alias = 'l'): SqlPart {
  return { where: [`geo_within(?, ${alias}.lat, ${alias}.lon)`], params: [JSON.stringify(area)] };
}

/** Distance in metres from a point to the listing, as `sort=distance` orders (null without coordinates). */
export const DISTANCE_FUNCTION = 'geo_distance_m';

/** Areas parsed once per text: a statement calls the function for each row with the same text. */
const MAX_KEPT_AREAS = 64;

export function registerGeoFunctions(db: Database.Database): void {
  const tests = new Map<string, (point: LatLon) => boolean>();
  const testOf = (text: string) => {
    let test = tests.get(text);
    if (!test) {
      const area = JSON.parse(text) as GeoArea;
      const parts = area.kind === 'polygon' ? polygonParts(area.vertices) : null;
      test = parts ? (point) => inParts(parts, point) : (point) => inArea(area, point);
      if (tests.size >= MAX_KEPT_AREAS) tests.delete(tests.keys().next().value as string);
      tests.set(text, test);
    }
    return test;
  };
  db.function('geo_within', { deterministic: true, directOnly: true }, (text: unknown, lat: unknown, lon: unknown) => {
    if (typeof lat !== 'number' || typeof lon !== 'number') return 0;
    return testOf(String(text))({ lat, lon }) ? 1 : 0;
  });
  db.function(DISTANCE_FUNCTION, { deterministic: true, directOnly: true }, (fromLat: unknown, fromLon: unknown, lat: unknown, lon: unknown) => {
    if (typeof lat !== 'number' || typeof lon !== 'number') return null;
    return distanceMeters({ lat: Number(fromLat), lon: Number(fromLon) }, { lat, lon });
  });
}
