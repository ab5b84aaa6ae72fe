/**
 * A capped map that covers its box on SQLite (src/core/query/map-sampling.ts): the whole box read
 * first, then, when capped, each cell's total (from the in-memory points for the default map) and
 * each cell's points up to its quota, all through the map reader.
 */
import type { MapQuery } from '../../../core/query/query.js';
import type { MapResult } from '../../../core/ports/listing-reader.js';
import { cellQuotas, cellsToSample, sampledResult } from '../../../core/query/map-sampling.js';
import type { MapReader } from './reader.js';

export function spreadMap(reader: MapReader, query: MapQuery): MapResult {
  const whole = reader.map(query);
  const cells = cellsToSample(query, whole);
  if (!cells) return whole;
  const quotas = cellQuotas(
    cells.map((bbox) => reader.map({ ...query, bbox, limit: 0 }).total),
    query.limit,
  );
  return sampledResult(
    whole.total,
    cells.flatMap((bbox, i) => (quotas[i] > 0 ? [reader.map({ ...query, bbox, limit: quotas[i] })] : [])),
  );
}
