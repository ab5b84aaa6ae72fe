/**
 * Deterministic sample catalogue: raw collector records (valid against RawRecord) with the
 * ground-truth property each one describes, for loading, benchmarking and measuring deduplication.
 *
 * Properties are drawn one at a time and written to 1-4 sites each, so memory stays flat whatever
 * `count` is. Records pass through a small shuffle window so a property's copies are near each
 * other but not always adjacent, as when collectors of different sites run side by side.
 */
import type { Property } from './model.js';
import { createPlacePicker } from './places.js';
import { Rng } from './prng.js';
import { createNeighbourFlat, createProperty, type PropertyContext } from './property.js';
import { renderCopy } from './render.js';
import { chooseSites, loadSites } from './sites.js';

/** Fixed default reference date, so that the default output is reproducible. */
export const DEFAULT_NOW = new Date('2026-11-20T00:00:00Z');
export const DEFAULT_SEED = 42;

/** Share of properties listed on several sites (2 to 4). */
const MULTI_SITE_SHARE = 0.3;
/** Share of flats that get a neighbour flat (same building and surface): about 3 % of all properties. */
const NEIGHBOUR_SHARE_OF_FLATS = 0.075;
const SHUFFLE_WINDOW = 512;

export interface SampleOptions {
  /** Number of records (site listings) to yield. */
  count: number;
  seed?: number;
  /** Reference date: collection dates fall in the 120 days before it. Clamped to the real clock. */
  now?: Date;
  /** Filled as the generator runs. */
  stats?: SampleStats;
}

export interface SampleStats {
  /** Properties with at least one record yielded. */
  properties: number;
  /** Properties written to more than one site. */
  multiSiteProperties: number;
  /** Hard negatives: flats created as the neighbour of another one. */
  neighbourFlats: number;
}

export interface SampleRecord {
  record: Record<string, unknown>;
  propertyId: string;
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

export function* generateSample(opts: SampleOptions): Generator<SampleRecord> {
  if (!Number.isInteger(opts.count) || opts.count < 0) throw new Error('count must be a non-negative integer');
  const rng = new Rng(opts.seed ?? DEFAULT_SEED);
  const ctx: PropertyContext = { places: createPlacePicker(), now: effectiveNow(opts.now) };
  const sites = loadSites();
  const counters = new Map<string, number>();
  const stats = opts.stats ?? { properties: 0, multiSiteProperties: 0, neighbourFlats: 0 };
  const window: SampleRecord[] = [];
  let produced = 0;
  let serial = 0;
  let neighbour: Property | null = null;

  while (produced < opts.count) {
    let property: Property;
    if (neighbour) {
      property = neighbour;
      neighbour = null;
      stats.neighbourFlats++;
    } else {
      property = createProperty(propertyId(serial), serial, ctx, rng);
      serial++;
      if (property.kind === 'appartement' && rng.chance(NEIGHBOUR_SHARE_OF_FLATS)) {
        neighbour = createNeighbourFlat(property, propertyId(serial), serial, ctx, rng);
        serial++;
      }
    }
    const copies = rng.chance(MULTI_SITE_SHARE) ? rng.weighted<number>([[2, 60], [3, 27], [4, 13]]) : 1;
    const chosen = chooseSites(sites, property, copies, rng);
    let written = 0;
    for (const site of chosen) {
      if (produced >= opts.count) break;
      const counter = counters.get(site.source) ?? 0;
      counters.set(site.source, counter + 1);
      const record = renderCopy(property, site, { now: ctx.now, copyIndex: written, counter }, rng);
      written++;
      produced++;
      const item = { record, propertyId: property.id };
      if (window.length < SHUFFLE_WINDOW) {
        window.push(item);
      } else {
        const slot = rng.int(0, SHUFFLE_WINDOW - 1);
        yield window[slot];
        window[slot] = item;
      }
    }
    if (written > 0) stats.properties++;
    if (written > 1) stats.multiSiteProperties++;
  }
  while (window.length > 0) {
    const slot = rng.int(0, window.length - 1);
    const last = window.pop()!;
    if (slot < window.length) {
      yield window[slot];
      window[slot] = last;
    } else {
      yield last;
    }
  }
}

function propertyId(serial: number): string {
  return `P${String(serial + 1).padStart(8, '0')}`;
}
