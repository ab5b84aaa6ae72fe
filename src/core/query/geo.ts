/**
 * Geographic areas of a query (docs/api.md "Polygons and radius"): a polygon (`polygone`) or a
 * circle (`centre` and `rayon_km`), with the geometry both engines and the tests share: the polygon
 * cut at the antimeridian into parts that each lie within -180..180, point in polygon, and the
 * great-circle distance Elasticsearch uses (Lucene's haversine on its mean Earth radius).
 *
 * A polygon's edges are straight lines in longitude and latitude (as Elasticsearch draws them), each
 * going the shorter way around: an edge from 170 to -170 crosses the antimeridian.
 */
export interface LatLon {
  lat: number;
  lon: number;
}

export type GeoArea = { kind: 'polygon'; vertices: LatLon[] } | { kind: 'circle'; centre: LatLon; radiusKm: number };

export const MIN_POLYGON_VERTICES = 3;
export const MAX_POLYGON_VERTICES = 500;
export const MAX_RADIUS_KM = 100;

/** Lucene's mean Earth radius (GeoUtils.EARTH_MEAN_RADIUS), so both engines measure alike. */
export const EARTH_RADIUS_M = 6_371_008.7714;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The ring with each longitude moved by a multiple of 360 so that every edge is the shorter way. */
function unwrap(vertices: readonly LatLon[]): LatLon[] {
  const ring: LatLon[] = [];
  for (const vertex of vertices) {
    if (ring.length === 0) {
      ring.push({ ...vertex });
      continue;
    }
    const previous = ring[ring.length - 1].lon;
    let lon = vertex.lon;
    while (lon - previous > 180) lon -= 360;
    while (previous - lon > 180) lon += 360;
    ring.push({ lat: vertex.lat, lon });
  }
  return ring;
}

/** Longitude travelled around the ring: 0 for a ring that does not wind around a pole. */
function winding(ring: readonly LatLon[]): number {
  const closing = unwrap([ring[ring.length - 1], ring[0]]);
  return closing[1].lon - ring[0].lon;
}

const cross = (o: LatLon, a: LatLon, b: LatLon) => (a.lon - o.lon) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lon - o.lon);

function onSegment(p: LatLon, a: LatLon, b: LatLon): boolean {
  return Math.min(a.lon, b.lon) <= p.lon && p.lon <= Math.max(a.lon, b.lon) && Math.min(a.lat, b.lat) <= p.lat && p.lat <= Math.max(a.lat, b.lat);
}

/** Whether segments ab and cd share a point. */
function segmentsMeet(a: LatLon, b: LatLon, c: LatLon, d: LatLon): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && onSegment(a, c, d)) || (d2 === 0 && onSegment(b, c, d)) || (d3 === 0 && onSegment(c, a, b)) || (d4 === 0 && onSegment(d, a, b));
}

/** The vertices without a repeated closing vertex (a client may close the ring or not). */
export function openRing(vertices: readonly LatLon[]): LatLon[] {
  const ring = [...vertices];
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (ring.length > 1 && first.lat === last.lat && first.lon === last.lon) ring.pop();
  return ring;
}

/** The rule a polygon breaks, or null for a usable one (its vertices already within bounds). */
export function polygonProblem(vertices: readonly LatLon[]): string | null {
  if (vertices.length < MIN_POLYGON_VERTICES) return `needs at least ${MIN_POLYGON_VERTICES} distinct vertices`;
  if (vertices.length > MAX_POLYGON_VERTICES) return `at most ${MAX_POLYGON_VERTICES} vertices`;
  const ring = unwrap(vertices);
  for (let i = 0; i < ring.length; i++) {
    const next = ring[(i + 1) % ring.length];
    if (ring[i].lat === next.lat && ring[i].lon === next.lon) return `vertices ${i + 1} and ${((i + 1) % ring.length) + 1} are the same point`;
  }
  if (winding(ring) !== 0) return 'must not wind around a pole (its edges go the shorter way around the globe)';
  const closed = [...ring, { lat: ring[0].lat, lon: ring[0].lon + winding(ring) }];
  const edges = ring.length;
  for (let i = 0; i < edges; i++) {
    for (let j = i + 1; j < edges; j++) {
      const adjacent = j === i + 1 || (i === 0 && j === edges - 1);
      if (adjacent) {
        // Neighbours share a vertex; they overlap only when they fold back along one line.
        const [a, b, c] = j === i + 1 ? [closed[i], closed[i + 1], closed[j + 1]] : [closed[j], closed[j + 1], closed[i + 1]];
        if (cross(a, b, c) === 0 && (c.lon - b.lon) * (a.lon - b.lon) + (c.lat - b.lat) * (a.lat - b.lat) > 0) return `edges ${i + 1} and ${j + 1} overlap`;
        continue;
      }
      if (segmentsMeet(closed[i], closed[i + 1], closed[j], closed[j + 1])) return `must not cross itself (edges ${i + 1} and ${j + 1} meet)`;
    }
  }
  if (Math.abs(signedArea(ring)) === 0) return 'has no area';
  return null;
}

/** Twice the signed area in the longitude-latitude plane: positive counterclockwise. */
function signedArea(ring: readonly LatLon[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [a, b] = [ring[i], ring[(i + 1) % ring.length]];
    sum += a.lon * b.lat - b.lon * a.lat;
  }
  return sum;
}

/** Clips a ring to the longitudes at or east of `lon` (`east` true) or at or west of it. */
function clipAt(ring: readonly LatLon[], lon: number, east: boolean): LatLon[] {
  const inside = (p: LatLon) => (east ? p.lon >= lon : p.lon <= lon);
  const out: LatLon[] = [];
  for (let i = 0; i < ring.length; i++) {
    const [current, next] = [ring[i], ring[(i + 1) % ring.length]];
    if (inside(current)) out.push(current);
    if (inside(current) !== inside(next)) {
      const t = (lon - current.lon) / (next.lon - current.lon);
      out.push({ lat: current.lat + t * (next.lat - current.lat), lon });
    }
  }
  return out;
}

/**
 * The polygon as parts within -180..180, counterclockwise (the orientation Elasticsearch reads by
 * default): one part unless it crosses the antimeridian, then the pieces on each side.
 */
export function polygonParts(vertices: readonly LatLon[]): LatLon[][] {
  const ring = unwrap(vertices);
  const lons = ring.map((p) => p.lon);
  const parts: LatLon[][] = [];
  for (let shift = -720; shift <= 720; shift += 360) {
    const [west, east] = [-180 + shift, 180 + shift];
    if (Math.max(...lons) < west || Math.min(...lons) > east) continue;
    const piece = clipAt(clipAt(ring, west, true), east, false).map((p) => ({ lat: p.lat, lon: p.lon - shift }));
    if (piece.length >= 3 && signedArea(piece) !== 0) parts.push(signedArea(piece) > 0 ? piece : piece.reverse());
  }
  return parts;
}

/** Even-odd rule over the parts (each within -180..180). */
export function inParts(parts: readonly (readonly LatLon[])[], point: LatLon): boolean {
  let inside = false;
  for (const part of parts) {
    for (let i = 0, j = part.length - 1; i < part.length; j = i++) {
      const [a, b] = [part[i], part[j]];
      if (a.lat > point.lat !== b.lat > point.lat && point.lon < ((b.lon - a.lon) * (point.lat - a.lat)) / (b.lat - a.lat) + a.lon) inside = !inside;
    }
  }
  return inside;
}

/** Whether a point lies in the area. */
export function inArea(area: GeoArea, point: LatLon): boolean {
  if (area.kind === 'circle') return distanceMeters(area.centre, point) <= area.radiusKm * 1000;
  return inParts(polygonParts(area.vertices), point);
}

/** Latitude-longitude boxes that hold the area (west > east never: a box is cut at the antimeridian). */
export function areaBoxes(area: GeoArea): { south: number; west: number; north: number; east: number }[] {
  if (area.kind === 'polygon') {
    return polygonParts(area.vertices).map((part) => ({
      south: Math.min(...part.map((p) => p.lat)),
      north: Math.max(...part.map((p) => p.lat)),
      west: Math.min(...part.map((p) => p.lon)),
      east: Math.max(...part.map((p) => p.lon)),
    }));
  }
  // A degree of latitude is at least this long; a slightly larger box costs a few more rows, never a point.
  const latSpan = (area.radiusKm * 1000) / ((Math.PI * EARTH_RADIUS_M) / 180) + 1e-9;
  const south = Math.max(-90, area.centre.lat - latSpan);
  const north = Math.min(90, area.centre.lat + latSpan);
  const widest = Math.max(Math.abs(south), Math.abs(north));
  const lonSpan = widest >= 89.999 ? 180 : (latSpan / Math.cos(radians(widest))) * 1.001;
  if (lonSpan >= 180) return [{ south, north, west: -180, east: 180 }];
  const [west, east] = [area.centre.lon - lonSpan, area.centre.lon + lonSpan];
  if (west < -180)
    return [
      { south, north, west: west + 360, east: 180 },
      { south, north, west: -180, east },
    ].filter((b) => b.west <= b.east);
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}
