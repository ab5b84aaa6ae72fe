/**
 * Deterministic sample catalogue: raw collector records (valid against RawRecord) with the
 * ground-truth property each one describes, for loading, benchmarking and measuring deduplication.
 *
 * The catalogue is cut into blocks of 64 properties (plus their neighbour flats). A block is drawn
 * from its own random stream, seeded by (seed, block number), and its records are shuffled, so a
 * property's copies are near each other without always being adjacent. Blocks depend on nothing
 * but the seed: memory stays flat whatever `count` is, a smaller count gives a prefix of a larger
 * one, and blocks can be drawn in parallel (write.ts) with the very same output.
 *
 * A yielded record is one object literal with every raw field in a fixed order; the fields a site
 * leaves out are `undefined` (JSON.stringify drops them), which keeps a million records cheap.
 */
import type { Property } from './model.js';
import { createPlacePicker, type PlacePicker } from './places.js';
import { Rng } from './prng.js';
import { createNeighbourFlat, createProperty } from './property.js';
import { renderCopy } from './render.js';
import { chooseSites, loadSites, type Site } from './sites.js';
import { applyShape, createTwinFlat, SPARSE_SHARE, TWIN_SHARE_OF_FLATS, type PairShape } from './real-shapes.js';
import { RELIST_SHARE, relistProperty } from './relist.js';

/** Fixed default reference date, so that the default output is reproducible. */
export const DEFAULT_NOW = new Date('2026-11-20T00:00:00Z');
export const DEFAULT_SEED = 42;
/** References are unique per site while property serials stay below 90 million. */
export const MAX_COUNT = 40_000_000;

/** Properties drawn per block (each with an optional neighbour flat). */
export const PROPERTIES_PER_BLOCK = 64;
/** Share of properties listed on several sites (2 to 4). */
const MULTI_SITE_SHARE = 0.3;
/** Share of flats that get a neighbour flat (same building and surface): about 3 % of all properties. */
const NEIGHBOUR_SHARE_OF_FLATS = 0.075;
const NEIGHBOUR_SUFFIX = '-v';
const TWIN_SUFFIX = '-t';

export interface SampleOptions {
  /** Number of records (site listings) to yield. */
  count: number;
  /** 32-bit seed. */
  seed?: number;
  /** Reference date: collection dates fall in the 120 days before it. Clamped to the real clock. */
  now?: Date;
  /** Filled as the generator runs. */
  stats?: SampleStats;
}

export interface SampleStats {
  /** Properties with at least one record yielded. */
  properties: number;
  /** Properties with records on more than one site. */
  multiSiteProperties: number;
  /** Hard negatives: flats drawn as the neighbour of another one, with at least one record. */
  neighbourFlats: number;
}

export interface SampleRecord {
  record: Record<string, unknown>;
  propertyId: string;
  /** How the property's copies were written (real-shapes.ts): the evaluation reports each shape apart. */
  shape: PairShape;
  /** `source:reference` of the withdrawn listing this record republishes (relist.ts); absent otherwise. */
  relistedFrom?: string;
}

/** What every block needs: reference tables, loaded once per thread. */
export interface SampleEnv {
  seed: number;
  now: number;
  places: PlacePicker;
  sites: Site[];
}

export function createEnv(opts: { seed?: number; now?: Date } = {}): SampleEnv {
  return { seed: (opts.seed ?? DEFAULT_SEED) >>> 0, now: effectiveNow(opts.now), places: createPlacePicker(), sites: loadSites() };
}

/**
 * The reference date: the one asked for, unless it lies in the future of the real clock, in which
 * case the start of the current UTC day (deterministic for a whole day).
 */
export function effectiveNow(requested: Date = DEFAULT_NOW, realNow: number = Date.now()): number {
  const asked = requested.getTime();
  if (Number.isNaN(asked)) throw new Error('now must be a valid date');
  return asked <= realNow ? asked : Math.floor(realNow / 86_400_000) * 86_400_000;
}

export function checkCount(count: number): void {
  if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT) {
    throw new Error(`count must be an integer from 0 to ${MAX_COUNT}, got ${count}`);
  }
}

/** All records of block `block`, shuffled: about 95 of them. */
export function generateBlock(env: SampleEnv, block: number): SampleRecord[] {
  const rng = new Rng(env.seed, block);
  const records: SampleRecord[] = [];
  for (let i = 0; i < PROPERTIES_PER_BLOCK; i++) {
    const unit = block * PROPERTIES_PER_BLOCK + i;
    const id = `P${String(unit + 1).padStart(8, '0')}`;
    const property = createProperty(id, unit * 2, env, rng);
    const isFlat = property.kind === 'appartement';
    if (isFlat && property.surface !== null && rng.chance(TWIN_SHARE_OF_FLATS)) {
      // Its serial is the neighbour's: a flat gets a twin or a neighbour, never both.
      writeCopies(env, property, rng, records, 'twin');
      writeCopies(env, createTwinFlat(property, id + TWIN_SUFFIX, unit * 2 + 1, rng), rng, records, 'twin');
      continue;
    }
    const sparse = property.rooms !== null && property.surface !== null && rng.chance(SPARSE_SHARE);
    const first = records.length;
    writeCopies(env, property, rng, records, sparse ? 'sparse' : 'classic');
    if (isFlat && rng.chance(NEIGHBOUR_SHARE_OF_FLATS)) {
      writeCopies(env, createNeighbourFlat(property, id + NEIGHBOUR_SUFFIX, unit * 2 + 1, env, rng), rng, records, 'classic');
    } else if (records.length === first + 1 && property.status === 'active' && rng.chance(RELIST_SHARE)) {
      const relisting = relistProperty(property, records[first].record, env.sites, env.now, rng);
      if (relisting) records.push({ record: relisting.record, propertyId: property.id, shape: 'classic', relistedFrom: relisting.relistedFrom });
    }
  }
  for (let i = records.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    const swap = records[i];
    records[i] = records[j];
    records[j] = swap;
  }
  withdrawalsFirst(records);
  return records;
}

/**
 * A relisting after the listing it republishes, in the file as a collector would write them: the
 * indexer links a new listing to a listing withdrawn before it (or in the same batch).
 */
function withdrawalsFirst(records: SampleRecord[]): void {
  const position = new Map(records.map((r, i) => [`${r.record.source}:${r.record.reference}`, i]));
  for (let i = 0; i < records.length; i++) {
    const from = records[i].relistedFrom;
    const j = from === undefined ? undefined : position.get(from);
    if (j === undefined || j < i) continue;
    [records[i], records[j]] = [records[j], records[i]];
    position.set(from!, i);
    position.set(`${records[j].record.source}:${records[j].record.reference}`, j);
  }
}

/**
 * The property's copies, one per chosen site. Its serial doubles as the per-site counter behind
 * references: a property is never twice on one site, so references never repeat.
 */
function writeCopies(env: SampleEnv, property: Property, rng: Rng, out: SampleRecord[], shape: PairShape): void {
  // A property of a real shape is one pair: a SeLoger-like copy and a Leboncoin-like one.
  const copies = shape !== 'classic' ? 2 : rng.chance(MULTI_SITE_SHARE) ? rng.weighted(COPY_COUNTS) : 1;
  const sites = chooseSites(env.sites, property, copies, rng);
  for (let copyIndex = 0; copyIndex < sites.length; copyIndex++) {
    const record = renderCopy(property, sites[copyIndex], { now: env.now, copyIndex, counter: property.serial }, rng);
    applyShape(record, property, shape, copyIndex, rng);
    out.push({ record, propertyId: property.id, shape });
  }
}

const COPY_COUNTS: readonly (readonly [number, number])[] = [
  [2, 60],
  [3, 27],
  [4, 13],
];

export function isNeighbourFlat(propertyId: string): boolean {
  return propertyId.endsWith(NEIGHBOUR_SUFFIX);
}

/** Adds to `stats` the properties of the first `take` property ids of a block. */
export function countProperties(propertyIds: readonly string[], take: number, stats: SampleStats): void {
  const copies = new Map<string, number>();
  for (let i = 0; i < take; i++) copies.set(propertyIds[i], (copies.get(propertyIds[i]) ?? 0) + 1);
  for (const [id, n] of copies) {
    stats.properties++;
    if (n > 1) stats.multiSiteProperties++;
    if (isNeighbourFlat(id)) stats.neighbourFlats++;
  }
}

export function* generateSample(opts: SampleOptions): Generator<SampleRecord> {
  checkCount(opts.count);
  const env = createEnv(opts);
  const stats = opts.stats ?? { properties: 0, multiSiteProperties: 0, neighbourFlats: 0 };
  let remaining = opts.count;
  for (let block = 0; remaining > 0; block++) {
    const records = generateBlock(env, block);
    const take = Math.min(remaining, records.length);
    countProperties(
      records.map((r) => r.propertyId),
      take,
      stats,
    );
    for (let i = 0; i < take; i++) yield records[i];
    remaining -= take;
  }
}
