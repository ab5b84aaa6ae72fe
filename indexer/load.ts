/**
 * One load: NDJSON line -> validate (zod) -> normalise + redact -> merge with stored state -> group
 * duplicates -> bulk write. Bounded batches keep memory flat; a bad record goes to the rejects file
 * with its line number and reason and the load goes on; nothing is dropped silently.
 */
import type { NormaliseContext, NormalisedRecord } from './normalise.js';
import { mergeRecord } from './merge.js';
import type { InputLine } from './read.js';
import { parseInline, parseInWorker } from './parsed-lines.js';
import { loadCommunes } from '../src/core/refdata/communes.js';
import { type RejectedReason, RejectsWriter } from './rejects.js';
import { SingletonGrouping, type GroupingStage, type GroupWritePage } from './grouping.js';
import type { ListingIndex } from '../src/core/ports/listing-index.js';
import type { StoredListing } from '../src/core/model/stored.js';
import type { SiteCatalog } from '../src/core/model/sites.js';
import type { CommuneTable } from '../src/core/refdata/communes.js';
import { listingId } from '../src/core/model/stored.js';
import { withWriterLock } from '../src/core/ports/writer-lock.js';
import { startChangeClock } from './change-clock.js';
import { linkRelistings } from './relisting.js';
import { SnapshotTally, type ListingWriter, type SnapshotOptions, type SnapshotReport } from './snapshot.js';
import { BatchPipeline } from './batch-pipeline.js';
import { AsideIndex } from './first-build/aside-index.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export { BatchPipeline };

/** A collector's clock may run a little ahead; beyond this a record "from the future" is refused. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;
export const BATCH_SIZE = 1000;

export interface LoadOptions {
  files: string[];
  store: ListingIndex;
  sites: SiteCatalog;
  communes: CommuneTable;
  rejectsFile?: string | null;
  grouping?: GroupingStage;
  /** Wall clock (tests inject one). */
  now?: () => number;
  onProgress?: (progress: LoadProgress) => void;
  /**
   * Run inside the store's bulk mode (ListingIndex.duringBulkLoad; on SQLite only a first build). Default true; false forces the incremental path (tests compare both).
   */
  bulkLoad?: boolean;
  /**
   * Parse, validate, normalise and redact in a worker thread (parsed-lines.ts), on the second core.
   * Only with the commune table of loadCommunes() (the worker loads its own copy); otherwise, and by
   * default, in this thread. The outcome is the same either way.
   */
  parseInWorker?: boolean;
  /** The files hold every active listing of this scope: the ones they miss are counted, then withdrawn (snapshot.ts). */
  snapshot?: SnapshotOptions;
  /**
   * A first build into a store that asks for it (capabilities.firstBuildAside: Elasticsearch) is kept
   * aside, grouped there and written once (indexer/first-build/). Default true; false writes it as it
   * goes and rewrites the grouped listings at the end (tests compare both).
   */
  keepAside?: boolean;
  /** Where a first build kept aside keeps its temporary file (default: the OS's temporary directory). */
  asideDir?: string;
}

/** The counts of a load so far, with its time and rate (onProgress). */
export interface LoadProgress {
  read: number;
  written: number;
  unchanged: number;
  stale: number;
  rejected: number;
  groups_formed: number;
  /** New listings found to republish a withdrawn one (indexer/relisting.ts). */
  relisted: number;
  /** Listings a first build rewrote with their group fields once its records were written (0 for a later load). */
  regrouped_at_end: number;
  /**
   * Listing documents written to the store in all: the records' own writes, their groups' other
   * members rewritten, and a first build's regrouping at its end. Over `written`, what the load cost
   * the store per listing (index_operations_per_listing in the report).
   */
  index_operations: number;
  /**
   * Per field, the values of accepted records stored as null because they did not fit the field
   * (normalise.ts FieldReader): a collector whose columns shifted shows here.
   */
  nulled_fields: Record<string, number>;
  seconds: number;
  records_per_second: number;
}

/**
 * The report of a whole load, with where its time and memory went: the records (read, group,
 * write), then what a bulk load builds once at the end (indexes, full text). On a large catalogue the
 * second part runs over the whole store, so its time and its share of the peak are reported apart.
 */
export interface LoadReport extends LoadProgress, InputFindings {
  /** Seconds until the last record was written; the rest of `seconds` is the bulk mode's final build. */
  write_seconds: number;
  /** index_operations over written: 1 when each listing was written once (3 decimals). */
  index_operations_per_listing: number;
  /**
   * The part of write_seconds a first build spent grouping once its records were written (DedupGrouping
   * groups a first build at its end); 0 when the load grouped batch by batch.
   */
  grouping_seconds: number;
  /** Whether a first build's grouping ran in a worker thread (`load --group-in-worker`). */
  grouped_in_worker: boolean;
  /** Whether this first build was kept aside and each listing written once (indexer/first-build/). */
  written_once: boolean;
  /**
   * The longest time this thread did not get back to its event loop (ms, perf_hooks): the writer
   * lock's renewals wait that long, and a lease shorter than it fences the load.
   */
  longest_event_loop_pause_ms: number;
  /** Peak resident memory of the process (MiB, getrusage maxrss) when the last record had been written... */
  peak_rss_mib_writing: number;
  /** ...and at the end of the load, the final build included. */
  peak_rss_mib: number;
  /** A snapshot load's absentees: counted, withdrawn, or why not (snapshot.ts); absent from other loads. */
  snapshot?: SnapshotReport;
}

/** What a load found wrong with its input itself, beside the records it refused (in LoadReport). */
export interface InputFindings {
  /** Records whose title or description was cut to its cap (text-cap.ts). */
  texts_truncated: number;
  /**
   * Places where an input was damaged (a cut or corrupt gzip stream, bytes after it, a cut last
   * line), each also in the rejects file: what was readable before them is loaded. The CLI then exits 4.
   */
  damaged_inputs: { file: string; line: number; reason: string }[];
  /** Each reason records were refused for, with its count and a few references (rejects.ts), with or without a rejects file. */
  rejected_reasons: Record<string, RejectedReason>;
}

interface Parsed {
  input: InputLine;
  record: NormalisedRecord;
  hash: string;
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  // One writer at a time: change_seq is numbered here from the store's highest (loadFiles).
  return withWriterLock(options.store, { changesFrom: (options.now ?? Date.now)() }, () => runLockedLoad(options));
}

async function runLockedLoad(options: LoadOptions): Promise<LoadReport> {
  const started = process.hrtime.bigint();
  const { store } = options;
  const pauses = monitorEventLoopDelay({ resolution: 10 });
  pauses.enable();
  let peakWhileWriting = 0;
  const writeRecords = async () => {
    const loaded = await loadFiles(options, started);
    peakWhileWriting = peakRssMiB();
    return loaded;
  };
  // The report's time includes what the bulk mode does at the end (building indexes).
  const { progress, groupingSeconds, findings, snapshot, writtenOnce } =
    options.bulkLoad !== false ? await store.duringBulkLoad(writeRecords) : await writeRecords();
  pauses.disable();
  return {
    ...withTiming(progress, started),
    ...findings,
    write_seconds: progress.seconds,
    index_operations_per_listing: progress.written > 0 ? Math.round((progress.index_operations / progress.written) * 1000) / 1000 : 0,
    grouping_seconds: Math.round(groupingSeconds * 100) / 100,
    grouped_in_worker: options.grouping?.groupedInWorker === true,
    written_once: writtenOnce,
    longest_event_loop_pause_ms: Math.round(pauses.max / 1e5) / 10,
    peak_rss_mib_writing: peakWhileWriting,
    peak_rss_mib: peakRssMiB(),
    ...(snapshot ? { snapshot } : {}),
  };
}

/** The process's peak resident memory so far, in MiB (the VmHWM of /proc/self/status). */
function peakRssMiB(): number {
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

async function loadFiles(
  options: LoadOptions,
  started: bigint,
): Promise<{ progress: LoadProgress; groupingSeconds: number; findings: InputFindings; snapshot: SnapshotReport | null; writtenOnce: boolean }> {
  const now = options.now ?? Date.now;
  const grouping: GroupingStage = options.grouping ?? new SingletonGrouping();
  const rejects = new RejectsWriter(options.rejectsFile ?? null);
  const report: LoadProgress = {
    read: 0,
    written: 0,
    unchanged: 0,
    stale: 0,
    rejected: 0,
    groups_formed: 0,
    relisted: 0,
    regrouped_at_end: 0,
    index_operations: 0,
    nulled_fields: {},
    seconds: 0,
    records_per_second: 0,
  };
  // A first build kept aside: every lookup and write of the load goes to it, and it writes the target at the end.
  const aside = await AsideIndex.forLoad(options.store, { keepAside: options.keepAside, snapshot: options.snapshot, dir: options.asideDir });
  const store = aside ?? options.store;
  const clockNow = await startChangeClock(store, now);
  // Read before any record is written: the scope as the snapshot found it.
  const snapshot = options.snapshot ? await SnapshotTally.start(options.store, options.snapshot) : null;
  const context: NormaliseContext = { communes: options.communes, siteName: (s) => options.sites.get(s)?.name };
  const findings: InputFindings = { texts_truncated: 0, damaged_inputs: [], rejected_reasons: {} };

  const reject = async (input: InputLine, reason: string, field?: string) => {
    report.rejected++;
    await rejects.write({ file: input.file, line: input.line, reason, field, record: input.text });
  };

  /** A batch's listings with the members of their groups that change (the grouping stage), written. */
  const writeListings: ListingWriter = async (listings, stored, clock) => {
    const written = await grouping.apply(listings, store, clock, stored);
    const refused = await store.upsertMany(written);
    if (!aside) report.index_operations += written.length - refused.length;
    return refused;
  };

  const flush = async (batch: Parsed[]) => {
    if (batch.length === 0) return;
    const clock = clockNow();
    const stored = await store.getMany([...new Set(batch.map((p) => listingId(p.record.content.source, p.record.content.reference)))]);
    const toWrite = new Map<string, StoredListing>();
    for (const { record, hash } of batch) {
      const id = listingId(record.content.source, record.content.reference);
      const outcome = mergeRecord(record, toWrite.get(id) ?? stored.get(id), clock, hash);
      if (outcome.kind === 'write') toWrite.set(id, outcome.listing);
      else if (outcome.kind === 'unchanged') report.unchanged++;
      else report.stale++;
    }
    report.relisted += await linkRelistings(toWrite, stored, store);
    const refused = new Map((await writeListings([...toWrite.values()], stored, clock)).map((f) => [f.id, f.reason]));
    for (const { input, record } of batch) {
      const reason = refused.get(listingId(record.content.source, record.content.reference));
      if (reason !== undefined) await reject(input, reason);
    }
    report.written += [...toWrite.keys()].filter((id) => !refused.has(id)).length;
    report.groups_formed = grouping.groupsFormed;
    options.onProgress?.(withTiming(report, started));
  };

  /** What the grouping stage writes once the records are (a first build's groups): group fields, not records. */
  let groupingSeconds = 0;
  const writeGroupedAtEnd = async (pages: AsyncIterable<GroupWritePage>) => {
    const from = process.hrtime.bigint();
    for await (const page of pages) {
      const refused = await page.write(store);
      // The same listings were accepted moments before with other group fields: a refusal is a bug of the backend's mapping, not bad input.
      if (refused.length > 0)
        throw new Error(`the store refused the group fields of ${refused.length} listing(s), e.g. ${refused[0].id}: ${refused[0].reason}`);
      report.regrouped_at_end += page.count;
      if (!aside) report.index_operations += page.count;
      // At 5M this phase takes minutes: the progress shows it moving.
      options.onProgress?.(withTiming(report, started));
    }
    report.groups_formed = grouping.groupsFormed;
    groupingSeconds = Number(process.hrtime.bigint() - from) / 1e9;
  };

  /**
   * Every listing of a first build kept aside, written to the target once with its group. A listing
   * the target refuses is a record refused, as when a batch writes it (its input line is not kept).
   */
  const writeAsideOnce = async (kept: AsideIndex) => {
    const refused = await kept.writeOnce(({ written }) => {
      report.index_operations += written;
      options.onProgress?.(withTiming(report, started));
    });
    for (const failure of refused) {
      // An id is `source:reference` (listingId), and a source holds no colon.
      const at = failure.id.indexOf(':');
      const named = JSON.stringify({ source: failure.id.slice(0, at), reference: failure.id.slice(at + 1) });
      report.written--;
      await reject({ file: '(first build, written at its end)', line: 0, text: named }, failure.reason);
    }
  };

  let batch: Parsed[] = [];
  let snapshotReport: SnapshotReport | null = null;
  const lines =
    options.parseInWorker && options.communes === loadCommunes()
      ? parseInWorker(options.files, options.sites)
      : parseInline(options.files, options.sites, context);
  const writing = new BatchPipeline(flush);
  try {
    await grouping.begin?.(store);
    for await (const line of lines) {
      const { input, outcome } = line;
      snapshot?.mention(line);
      if (!outcome.ok && outcome.damaged) {
        // Not a record: the place where the input stops being readable.
        findings.damaged_inputs.push({ file: input.file, line: input.line, reason: outcome.reason });
        await rejects.write({ file: input.file, line: input.line, reason: outcome.reason, record: input.text || undefined });
        continue;
      }
      report.read++;
      if (outcome.ok && outcome.truncated) findings.texts_truncated++;
      if (!outcome.ok) await reject(input, outcome.reason, outcome.field);
      else if (outcome.record.collectedAt > now() + FUTURE_TOLERANCE_MS) await reject(input, 'collected_at is in the future', 'collected_at');
      else {
        for (const field of outcome.record.nulled) report.nulled_fields[field] = (report.nulled_fields[field] ?? 0) + 1;
        batch.push({ input, record: outcome.record, hash: outcome.contentHash });
      }
      if (batch.length >= BATCH_SIZE) {
        await writing.next(batch);
        batch = [];
      }
    }
    await writing.next(batch);
    await writing.drain();
    if (snapshot) snapshotReport = await snapshot.finish(options.store, writeListings, clockNow, findings.damaged_inputs.length > 0);
    if (grouping.finish) await writeGroupedAtEnd(grouping.finish(store, clockNow));
    if (aside) await writeAsideOnce(aside);
  } finally {
    await aside?.close();
    // A failure while reading leaves a batch perhaps in flight: its end is awaited (its own error is
    // the lesser one), so nothing writes after the load has returned.
    await writing.drain().catch(() => undefined);
    await rejects.close();
    findings.rejected_reasons = rejects.summary();
  }
  return { progress: withTiming(report, started), groupingSeconds, findings, snapshot: snapshotReport, writtenOnce: aside !== null };
}

function withTiming(report: LoadProgress, started: bigint): LoadProgress {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { ...report, seconds: Math.round(seconds * 100) / 100, records_per_second: seconds > 0 ? Math.round(report.read / seconds) : 0 };
}
