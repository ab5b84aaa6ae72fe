/**
 * `npm run indexer -- dedup --rebuild`: regroups the whole catalogue from the store, base by base
 * (transaction|type|postal code, all its price buckets at once).
 *
 * Use it after changing the scoring, the site priorities (sites.json) or after loads made without
 * deduplication. It runs the same regrouping as a load (regroup.ts) with every listing as a seed, so
 * on a catalogue the loads kept up to date it changes nothing, and otherwise it gives the groups a
 * load of the same catalogue gives. Keys are kept by the same rules (keys.ts). Memory holds the set
 * of block keys and one base at a time, never the catalogue.
 *
 * It also repairs a store written before the block key changed (src/core/dedup/block-key.ts): a base
 * whose blocks do not return all its active listings has its listings rewritten as they are (the
 * store re-indexes them under the current key) and is then regrouped.
 */
import { withWriterLock } from '../../src/core/ports/writer-lock.js';
import { startChangeClock } from '../change-clock.js';
import { baseOfKey, blockKeyOf } from '../../src/core/dedup/block-key.js';
import type { SiteCatalog } from '../../src/core/model/sites.js';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { ListingIndex } from '../../src/core/ports/listing-index.js';
import type { MergeClock } from '../merge.js';
import { ungroupedFields, type GroupFields } from './group-output.js';
import { scanListings } from './scan.js';
import { readBase, regroupCandidates, withGroupFields } from './whole-base.js';

export interface RebuildOptions {
  store: ListingIndex;
  sites: SiteCatalog;
  threshold?: number;
  now?: () => number;
  /** Listings written per upsertMany call. */
  writeBatch?: number;
  onProgress?: (report: RebuildReport) => void;
}

export interface RebuildReport {
  bases: number;
  listings: number;
  rewritten: number;
  groups_formed: number;
  seconds: number;
}

export async function rebuildGroups(options: RebuildOptions): Promise<RebuildReport> {
  return withWriterLock(options.store, { changesFrom: (options.now ?? Date.now)() }, () => rebuildLocked(options));
}

async function rebuildLocked(options: RebuildOptions): Promise<RebuildReport> {
  const started = process.hrtime.bigint();
  const now = options.now ?? Date.now;
  const clock = await startChangeClock(options.store, now);
  const report: RebuildReport = { bases: 0, listings: 0, rewritten: 0, groups_formed: 0, seconds: 0 };
  const pending: StoredListing[] = [];
  const flush = async (force = false) => {
    if (pending.length === 0 || (!force && pending.length < (options.writeBatch ?? 1000))) return;
    // Group fields only: the listings' own content (and so their dedup features) is as stored.
    await options.store.upsertGroupFields(pending.splice(0));
  };

  // 1. Every block key of the active catalogue, by base, with the number of listings each base must
  //    hold; listings outside any block must carry no group fields.
  const keysByBase = new Map<string, Set<string>>();
  const expected = new Map<string, number>();
  const strays: string[] = [];
  for await (const page of scanListings(options.store, 'all')) {
    for (const listing of page) {
      report.listings++;
      const key = listing.status === 'active' ? blockKeyOf(listing) : null;
      if (key === null) {
        if (hasGroupFields(listing)) strays.push(listing.id);
        continue;
      }
      const base = baseOfKey(key);
      const keys = keysByBase.get(base);
      if (keys) keys.add(key);
      else keysByBase.set(base, new Set([key]));
      expected.set(base, (expected.get(base) ?? 0) + 1);
    }
  }
  for (let i = 0; i < strays.length; i += 500) {
    const writeClock = clock();
    for (const listing of (await options.store.getMany(strays.slice(i, i + 500))).values()) {
      queue(listing, ungroupedFields(listing), writeClock);
    }
  }

  // 2. Each base regrouped from scratch; only members whose group fields changed are written.
  const stale = new Set<string>();
  const regroup = async (base: string) => {
    const members = await readBase(options.store, [...keysByBase.get(base)!].sort());
    if (members.length < expected.get(base)!) {
      // The store indexed some of these listings under another block key (written before the key
      // changed): they are rewritten first (step 3), which re-indexes them, then the base is regrouped.
      stale.add(base);
      return;
    }
    const result = await regroupCandidates(options.store, members, { sites: options.sites, threshold: options.threshold, clock: clock() });
    report.bases++;
    report.groups_formed += result.minted;
    pending.push(...result.writes);
    report.rewritten += result.writes.length;
    await flush();
    if (report.bases % 1000 === 0) options.onProgress?.(withSeconds(report, started));
  };
  for (const base of [...keysByBase.keys()].sort()) await regroup(base);
  await flush(true);

  // 3. Bases the store had indexed under an older block key: rewrite their listings as they are.
  if (stale.size > 0) {
    const toReindex = new Set(stale);
    stale.clear();
    for await (const page of scanListings(options.store, 'active')) {
      const reindex = page.filter((listing) => {
        const key = blockKeyOf(listing);
        return key !== null && toReindex.has(baseOfKey(key));
      });
      if (reindex.length > 0) await options.store.upsertMany(reindex);
    }
    for (const base of [...toReindex].sort()) await regroup(base);
    await flush(true);
    if (stale.size > 0) throw new Error(`findBlock does not return every active listing of ${stale.size} block base(s), e.g. ${[...stale][0]}`);
  }
  return withSeconds(report, started);

  function queue(listing: StoredListing, fields: GroupFields, writeClock: MergeClock): void {
    const next = withGroupFields(listing, fields, writeClock);
    if (!next) return;
    pending.push(next);
    report.rewritten++;
  }
}

function hasGroupFields(listing: StoredListing): boolean {
  return listing.dedup_key !== null || listing.group_members !== null || listing.group_sites_ahead.length > 0 || Object.keys(listing.completed_from).length > 0;
}

function withSeconds(report: RebuildReport, started: bigint): RebuildReport {
  return { ...report, seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100 };
}
