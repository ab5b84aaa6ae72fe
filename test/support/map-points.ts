/** The points of a map answer as the route sends them (ListingReader.map: texts joined with commas). */
import type { MapResult } from '../../src/core/ports/listing-reader.js';
import type { AnnonceMapPoint } from '../../src/core/model/annonce.js';

export function mapPointsOf(result: MapResult): AnnonceMapPoint[] {
  return JSON.parse(`[${result.texts.map(String).join(',')}]`) as AnnonceMapPoint[];
}
