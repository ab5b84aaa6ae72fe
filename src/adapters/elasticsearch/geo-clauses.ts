/**
 * The `polygone` and `centre`/`rayon_km` areas as clauses on the geo_point `location`
 * (src/core/query/geo.ts): a polygon is a `geo_shape` query of its parts (cut at the antimeridian,
 * counterclockwise, so the default orientation reads each part as drawn), a circle a `geo_distance`
 * (arc, the haversine the SQLite adapter computes).
 */
import { polygonParts, type GeoArea, type LatLon } from '../../core/query/geo.js';
import type { estypes } from '@elastic/elasticsearch';

const closedRing = (part: readonly LatLon[]) => [...part, part[0]].map((p) => [p.lon, p.lat]);

export function areaClause(area: GeoArea): estypes.QueryDslQueryContainer {
  if (area.kind === 'circle') {
    return { geo_distance: { distance: `${area.radiusKm * 1000}m`, distance_type: 'arc', location: { lat: area.centre.lat, lon: area.centre.lon } } };
  }
  const coordinates = polygonParts(area.vertices).map((part) => [closedRing(part)]);
  return { geo_shape: { location: { shape: { type: 'multipolygon', coordinates }, relation: 'intersects' } } };
}
