/**
 * Relisted properties in the sample catalogue (docs/deduplication.md "Relisted properties"): an
 * agency withdraws its listing and publishes the same property again under a new reference, on the
 * same site or another, often a little cheaper, so that it looks new. A share of the properties
 * listed once has its listing withdrawn (`retirée`) and a new listing written 1 to 75 days later.
 *
 * The new listing's reference comes from the property's second serial (`serial + 1`), which only a
 * neighbour or twin flat would use: a property that has one is never relisted.
 */
import type { Property } from './model.js';
import type { Rng } from './prng.js';
import { renderCopy } from './render.js';
import { chooseSites, type Site } from './sites.js';

/** Share of the active properties listed on one site without a neighbour flat that are relisted. */
export const RELIST_SHARE = 0.04;
/** Share of relistings on the withdrawn listing's own site (the rest on another site). */
const SAME_SITE_SHARE = 0.6;
/** Share of relistings at a lower price, and the cut (a price cut is the usual reason to relist). */
const PRICE_CUT_SHARE = 0.7;
const PRICE_CUT = [0.02, 0.09] as const;
const MAX_GAP_DAYS = 75;
const DAY_MS = 86_400_000;

export interface Relisting {
  /** The new listing's raw record. */
  record: Record<string, unknown>;
  /** `source:reference` of the listing it republishes. */
  relistedFrom: string;
}

/**
 * Withdraws `withdrawn` (the property's only record, changed in place) and returns the new listing
 * of the property, or null when the withdrawal was collected too close to `now` to be followed by one.
 */
export function relistProperty(p: Property, withdrawn: Record<string, unknown>, sites: readonly Site[], now: number, rng: Rng): Relisting | null {
  const withdrawnAt = Date.parse(String(withdrawn.collected_at));
  const room = Math.floor((now - withdrawnAt) / DAY_MS);
  if (room < 1) return null;
  const gapDays = rng.int(1, Math.min(MAX_GAP_DAYS, room));
  withdrawn.status = 'retirée';
  const site = rng.chance(SAME_SITE_SHARE) ? siteOf(sites, String(withdrawn.source)) : anotherSite(sites, p, String(withdrawn.source), rng);
  const offered = rng.chance(PRICE_CUT_SHARE) ? { ...p, price: cutPrice(p, rng) } : p;
  const record = renderCopy(offered, site, { now, copyIndex: 0, counter: p.serial + 1 }, rng);
  record.collected_at = new Date(withdrawnAt + gapDays * DAY_MS - rng.int(0, 3_600_000)).toISOString();
  return { record, relistedFrom: `${withdrawn.source}:${withdrawn.reference}` };
}

function siteOf(sites: readonly Site[], source: string): Site {
  return sites.find((site) => site.source === source)!;
}

/** Another site that takes this kind of listing; its own site when there is none. */
function anotherSite(sites: readonly Site[], p: Property, source: string, rng: Rng): Site {
  return chooseSites(sites, p, 3, rng).find((site) => site.source !== source) ?? siteOf(sites, source);
}

function cutPrice(p: Property, rng: Rng): number {
  const cut = p.price * (1 - rng.float(PRICE_CUT[0], PRICE_CUT[1]));
  const step = p.transaction === 'location' ? 5 : cut > 100_000 ? 1_000 : 100;
  return Math.max(step, Math.round(cut / step) * step);
}
