/**
 * A first build kept aside: the load, its grouping stage and the relisting lookups see this
 * ListingIndex, whose listings live in a temporary file (aside-file.ts) instead of the target store.
 * The grouping at the end reads its blocks from the file and writes its group fields back into it;
 * then writeOnce() writes every listing to the target once, with its group (write-once.ts).
 *
 * Why: on a store without stored candidates (Elasticsearch) a first build grouped at its end wrote
 * each listing, read the blocks back and rewrote two listings in three with their groups. Kept aside,
 * the grouping runs the same code over the same listings, and the target sees one write a listing.
 *
 * The writer lock, the change positions and the marks stay the target's. The grouping-pending mark
 * is cleared only once every listing is written, and the build's own mark (FirstBuildAside.begun) is
 * set before its first write there: the rerun of a killed build finds it and is kept aside again.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { FirstBuildAside, FirstBuildMark, IndexCapabilities, ListingIndex, WriteFailure } from '../../src/core/ports/listing-index.js';
import type { SnapshotOptions } from '../snapshot.js';
import { AsideFile } from './aside-file.js';
import { writeOnce, type WriteOnceProgress } from './write-once.js';

type Target = ListingIndex;

export class AsideIndex implements ListingIndex {
  readonly capabilities: IndexCapabilities = { storedCandidates: null, groupWorker: null, firstBuildAside: null };
  /** The grouping finished (setGroupingPending(false)): the target's mark goes once every listing is written. */
  private grouped = false;

  private constructor(
    private readonly target: Target,
    private readonly file: AsideFile,
    private readonly aside: FirstBuildAside,
    private readonly mark: FirstBuildMark,
  ) {}

  get backend(): string {
    return this.target.backend;
  }

  /**
   * The aside index of a load, or null when the load writes to the target as it goes: an engine that
   * does not ask for it, a snapshot load (its absences are counted in the target), a store that holds
   * listings, or the rerun of a killed first build (its grouping reads what the target holds).
   */
  static async forLoad(target: Target, options: { keepAside?: boolean; snapshot?: SnapshotOptions; dir?: string }): Promise<AsideIndex | null> {
    const aside = target.capabilities.firstBuildAside;
    if (aside === null || options.keepAside === false || options.snapshot) return null;
    // The rerun of a killed build kept aside starts it again: the pages it wrote are a part of the
    // files' final state, not the state a load of them reaches half-way (a withdrawal it wrote would
    // be found by an earlier record's relisting lookup), so they are not read back but written again.
    const begun = await aside.begun();
    if (!begun && ((await target.groupingPending()) || (await target.count()) > 0)) return null;
    const mark = begun ?? { changeSeqFrom: await target.maxChangeSeq() };
    if (!begun) await aside.setBegun(mark);
    return new AsideIndex(target, AsideFile.open(options.dir), aside, mark);
  }

  // Each lookup and write is one short synchronous statement: the event loop runs first, so the
  // writer lock's renewals are never held up by a run of them.

  async getMany(ids: string[]): Promise<Map<string, StoredListing>> {
    await yieldToEventLoop();
    return this.file.get(ids);
  }

  async findBlock(blockKey: string): Promise<StoredListing[]> {
    return (await this.findBlocks([blockKey])).get(blockKey)!;
  }

  async findBlocks(blockKeys: string[]): Promise<Map<string, StoredListing[]>> {
    await yieldToEventLoop();
    return this.file.activeInBlocks(blockKeys);
  }

  async withdrawnInBlocks(blockKeys: string[], leftSince: number): Promise<StoredListing[]> {
    await yieldToEventLoop();
    return this.file.withdrawnInBlocks(blockKeys, leftSince);
  }

  async blockKeysAfter(after: string | null, limit: number): Promise<string[]> {
    await yieldToEventLoop();
    return this.file.blockKeysAfter(after, limit);
  }

  async count(): Promise<number> {
    return this.file.count();
  }

  async upsertMany(listings: StoredListing[]): Promise<WriteFailure[]> {
    await yieldToEventLoop();
    this.file.put(listings);
    return [];
  }

  async upsertGroupFields(listings: StoredListing[]): Promise<WriteFailure[]> {
    return this.upsertMany(listings);
  }

  /** The target's mark (a rerun of a killed build finds it set), until the grouping here has finished. */
  async groupingPending(): Promise<boolean> {
    return !this.grouped && (await this.target.groupingPending());
  }

  async setGroupingPending(pending: boolean): Promise<void> {
    if (pending) await this.target.setGroupingPending(true);
    else this.grouped = true;
  }

  /** Where the build numbers from: a rerun gives each listing the position the killed build gave it. */
  async maxChangeSeq(): Promise<number> {
    return this.mark.changeSeqFrom;
  }

  maxChangedAt(): Promise<number> {
    return this.target.maxChangedAt();
  }

  /**
   * Every listing kept aside written to the target once, a page at a time; then the grouping's mark
   * cleared there if the grouping finished. Returns what the target refused.
   */
  async writeOnce(onPage: (progress: WriteOnceProgress) => void): Promise<WriteFailure[]> {
    const refused = await writeOnce(this.file, (page) => this.aside.writePage(page), { pageSize: this.aside.pageSize, onPage });
    if (this.grouped) await this.target.setGroupingPending(false);
    await this.aside.setBegun(null);
    return refused;
  }

  /** Deletes the file (the load calls it also after a failure); the target stays open. */
  async close(): Promise<void> {
    this.file.close();
  }

  // What a load kept aside never asks for: the loads that need them write to the target (forLoad).

  readonly catalogue = notAside('catalogue');
  readonly activeInScope = notAside('activeInScope');
  readonly recordAbsences = notAside('recordAbsences');
  readonly duringBulkLoad = notAside('duringBulkLoad');
  readonly recordLoad = notAside('recordLoad');
  readonly storeStatus = notAside('storeStatus');
  readonly acquireWriterLock = notAside('acquireWriterLock');
}

function notAside(member: string): () => never {
  return () => {
    throw new Error(`${member} is not available on a first build kept aside (the target store answers it)`);
  };
}
