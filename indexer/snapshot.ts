/**
 * Snapshot loads (`load --snapshot SITE[:DEPT,...]`): the files hold every active listing of a site
 * (or of some of its departments), so a listing of that scope the files do not mention was not seen.
 * Collectors rarely see a listing's "withdrawn" status; they see it vanish. Each active listing of the
 * scope that a snapshot misses has its count raised (StoredListing.absent_loads); missed by
 * `absentLoads` snapshots in a row, it is withdrawn (status `retiree`, reason `absent`), through the
 * load's own write path (grouping, change position), so the flows, the alerts and the read model
 * follow. A record of the listing, in any later load, clears its count (merge.ts) and, if it was
 * withdrawn, brings it back. Each count carries the snapshot's pass (its latest collected_at): a
 * snapshot loaded again, or a load run again after it stopped half-way, counts no listing twice and
 * withdraws what the first run left to withdraw.
 *
 * Guards: nothing is counted or withdrawn when an input was damaged (the files may be cut short), or
 * when the snapshot holds fewer than `minRatio` of the scope's active listings (a collector that
 * failed half-way); a listing any line of the load names, even a refused one, is never absent.
 *
 * The scope is read once, before the first record is written (its ids and counts, no documents);
 * each line then strikes its listing off, so the memory is the scope's ids, whatever the files hold.
 */
import type { StoredListing } from '../src/core/model/stored.js';
import { listingId } from '../src/core/model/stored.js';
import type { Absence, ListingIndex, SnapshotScope, WriteFailure } from '../src/core/ports/listing-index.js';
import type { MergeClock } from './merge.js';
import type { ParsedLine } from './parsed-lines.js';

export interface SnapshotOptions {
  scope: SnapshotScope;
  /** Snapshots in a row a listing must be missing from to be withdrawn (`--absent-loads`, default 2). */
  absentLoads: number;
  /** The share of the scope's active listings a snapshot must hold for anything to be counted (`--min-ratio`, default 0.8). */
  minRatio: number;
}

export const DEFAULT_ABSENT_LOADS = 2;
export const DEFAULT_MIN_RATIO = 0.8;

/** The `snapshot` part of a load's report. */
export interface SnapshotReport {
  site: string;
  /** The departments of the scope, null for the whole site. */
  departments: string[] | null;
  /** Active listings of the scope when the load began. */
  active: number;
  /** Of those, the ones a line of the load names. */
  held: number;
  /** held / active (1 for an empty scope), 3 decimals. */
  held_ratio: number;
  /** Active listings of the scope this snapshot missed: their count went up (the swept ones included). */
  counted_absent: number;
  /** Missed listings this snapshot's pass (or a later one) had counted already: a snapshot loaded again. */
  counted_before: number;
  /** Of those, the ones missed `absent_loads` times in a row, now withdrawn (status retiree, reason absent). */
  swept: number;
  absent_loads: number;
  min_ratio: number;
  /** Why nothing was counted nor swept (a guard), else null. */
  not_swept: string | null;
}

/** Writes listings through the load's path (grouping, upsertMany); returns what the store refused. */
export type ListingWriter = (listings: StoredListing[], before: ReadonlyMap<string, StoredListing>, clock: MergeClock) => Promise<WriteFailure[]>;

/** Listings read and withdrawn at a time. */
const SWEEP_BATCH = 1000;

export class SnapshotTally {
  /** Time of the snapshot's pass: the latest collected_at of its site's records (0: none yet). */
  private passAt = 0;

  private constructor(
    private readonly options: SnapshotOptions,
    private readonly active: number,
    /** The scope's active listings no line has named yet, with their counts. */
    private readonly unseen: Map<string, Absence>,
  ) {}

  /** Reads the scope; call it holding the writer lock, before the load writes. */
  static async start(store: ListingIndex, options: SnapshotOptions): Promise<SnapshotTally> {
    const scope = await store.activeInScope(options.scope);
    return new SnapshotTally(options, scope.size, scope);
  }

  /** Every line of the load, accepted or not: the listing it names was seen. */
  mention({ input, outcome }: ParsedLine): void {
    if (outcome.ok) {
      const { content } = outcome.record;
      this.unseen.delete(listingId(content.source, content.reference));
      if (content.source === this.options.scope.source) this.passAt = Math.max(this.passAt, outcome.record.collectedAt);
      return;
    }
    if (outcome.damaged) return;
    const id = namedListing(input.text);
    if (id !== null) this.unseen.delete(id);
  }

  /**
   * After the load's records are written: counts the scope's unseen listings and withdraws those
   * missed often enough, unless a guard holds. `damaged`: an input of the load was damaged.
   */
  async finish(store: ListingIndex, write: ListingWriter, clockNow: () => MergeClock, damaged: boolean): Promise<SnapshotReport> {
    const held = this.active - this.unseen.size;
    const ratio = this.active === 0 ? 1 : held / this.active;
    const report: SnapshotReport = {
      site: this.options.scope.source,
      departments: this.options.scope.departments === null ? null : [...this.options.scope.departments],
      active: this.active,
      held,
      held_ratio: Math.round(ratio * 1000) / 1000,
      counted_absent: 0,
      counted_before: 0,
      swept: 0,
      absent_loads: this.options.absentLoads,
      min_ratio: this.options.minRatio,
      not_swept: null,
    };
    if (damaged) return { ...report, not_swept: 'an input was damaged: the files may not hold the whole scope' };
    if (ratio < this.options.minRatio) {
      return {
        ...report,
        not_swept: `the snapshot holds ${held} of the scope's ${this.active} active listings (${report.held_ratio}), fewer than --min-ratio ${this.options.minRatio}`,
      };
    }
    const pass = this.passAt || clockNow().now;
    const counting = new Map<string, Absence>();
    const sweeping = new Map<string, Absence>();
    for (const [id, absence] of this.unseen) {
      // Counted by this pass already (a rerun), or by a later one (an older snapshot loaded late): not again.
      const counted = absence.at < pass ? { loads: absence.loads + 1, at: pass } : absence;
      if (counted !== absence) report.counted_absent++;
      else report.counted_before++;
      if (counted.loads >= this.options.absentLoads) sweeping.set(id, counted);
      else if (counted !== absence) counting.set(id, counted);
    }
    await store.recordAbsences(counting);
    report.swept = await this.sweep(store, sweeping, write, clockNow, pass);
    return report;
  }

  /** Withdraws the listings, a batch at a time; returns how many were. */
  private async sweep(store: ListingIndex, counts: Map<string, Absence>, write: ListingWriter, clockNow: () => MergeClock, pass: number): Promise<number> {
    const ids = [...counts.keys()];
    let swept = 0;
    for (let i = 0; i < ids.length; i += SWEEP_BATCH) {
      const before = await store.getMany(ids.slice(i, i + SWEEP_BATCH));
      const clock = clockNow();
      const withdrawn = [...before.values()]
        .filter((listing) => listing.status === 'active')
        .map((listing) => withdrawnForAbsence(listing, counts.get(listing.id)!, clock, pass));
      const refused = await write(withdrawn, before, clock);
      // These listings were written moments before by the same code: a refusal is the backend's, not the input's.
      if (refused.length > 0) throw new Error(`the store refused the withdrawal of ${refused.length} listing(s), e.g. ${refused[0].id}: ${refused[0].reason}`);
      swept += withdrawn.length;
    }
    return swept;
  }
}

/**
 * The listing withdrawn for its absence: status `retiree`, left the market at the snapshot's pass (never
 * before the last pass that saw it), a new change position. Its content hash is marked, so a record
 * with the content it had, seen again, is a change (back to active), not `unchanged`.
 */
export function withdrawnForAbsence(listing: StoredListing, absence: Absence, clock: MergeClock, passAt: number): StoredListing {
  return {
    ...listing,
    status: 'retiree',
    left_market_at: Math.max(passAt, listing.updated_at),
    changed_at: clock.now,
    change_seq: clock.nextChangeSeq(),
    content_hash: `${listing.content_hash}:absent`,
    absent_loads: absence.loads,
    absent_at: absence.at,
  };
}

/** The listing a refused line names, when its JSON has a source and a reference. */
function namedListing(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (json === null || typeof json !== 'object') return null;
  const { source, reference } = json as { source?: unknown; reference?: unknown };
  if (typeof source !== 'string' || (typeof reference !== 'string' && typeof reference !== 'number')) return null;
  return listingId(source, String(reference));
}
