/**
 * One load: NDJSON line -> validate (zod) -> normalise + redact -> merge with stored state -> group
 * duplicates -> bulk write. Bounded batches keep memory flat; a bad record goes to the rejects file
 * with its line number and reason and the load goes on; nothing is dropped silently.
 */
import { RawRecord } from './raw-record.js';
import { normaliseRecord, NormaliseError, type NormaliseContext, type NormalisedRecord } from './normalise.js';
import { mergeRecord, type MergeClock } from './merge.js';
import { readLines, type InputLine } from './read.js';
import { RejectsWriter } from './rejects.js';
import { SingletonGrouping, type GroupingStage } from './grouping.js';
import type { ListingStore } from '../src/stores/listing-store.js';
import type { StoredListing } from '../src/listings/stored.js';
import type { SiteCatalog } from '../src/listings/sites.js';
import type { CommuneTable } from '../src/refdata/communes.js';
import { listingId } from '../src/listings/stored.js';

/** A collector's clock may run a little ahead; beyond this a record "from the future" is refused. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;
export const BATCH_SIZE = 1000;

export interface LoadOptions {
  files: string[];
  store: ListingStore;
  sites: SiteCatalog;
  communes: CommuneTable;
  rejectsFile?: string | null;
  grouping?: GroupingStage;
  /** Wall clock (tests inject one). */
  now?: () => number;
  onProgress?: (report: LoadReport) => void;
}

export interface LoadReport {
  read: number;
  written: number;
  unchanged: number;
  stale: number;
  rejected: number;
  groups_formed: number;
  seconds: number;
  records_per_second: number;
}

interface Parsed { input: InputLine; record: NormalisedRecord }

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const now = options.now ?? Date.now;
  const grouping = options.grouping ?? new SingletonGrouping();
  const rejects = new RejectsWriter(options.rejectsFile ?? null);
  const started = process.hrtime.bigint();
  const report: LoadReport = { read: 0, written: 0, unchanged: 0, stale: 0, rejected: 0, groups_formed: 0, seconds: 0, records_per_second: 0 };
  let changeSeq = await options.store.maxChangeSeq();
  const context: NormaliseContext = { communes: options.communes, siteName: (s) => options.sites.get(s)?.name };

  const reject = async (input: InputLine, reason: string, field?: string) => {
    report.rejected++;
    await rejects.write({ file: input.file, line: input.line, reason, field, record: input.text });
  };

  const flush = async (batch: Parsed[]) => {
    if (batch.length === 0) return;
    const clock: MergeClock = { now: now(), nextChangeSeq: () => ++changeSeq };
    const stored = await options.store.getMany([...new Set(batch.map((p) => listingId(p.record.content.source, p.record.content.reference)))]);
    const toWrite = new Map<string, StoredListing>();
    for (const { record } of batch) {
      const id = listingId(record.content.source, record.content.reference);
      const outcome = mergeRecord(record, toWrite.get(id) ?? stored.get(id), clock);
      if (outcome.kind === 'write') toWrite.set(id, outcome.listing);
      else if (outcome.kind === 'unchanged') report.unchanged++;
      else report.stale++;
    }
    const written = await grouping.apply([...toWrite.values()], options.store, clock);
    const refused = new Map((await options.store.upsertMany(written)).map((f) => [f.id, f.reason]));
    for (const { input, record } of batch) {
      const reason = refused.get(listingId(record.content.source, record.content.reference));
      if (reason !== undefined) await reject(input, reason);
    }
    report.written += [...toWrite.keys()].filter((id) => !refused.has(id)).length;
    report.groups_formed = grouping.groupsFormed;
    options.onProgress?.(withTiming(report, started));
  };

  let batch: Parsed[] = [];
  try {
    for await (const input of readLines(options.files)) {
      report.read++;
      const parsed = await parseLine(input, options.sites, context, now(), reject);
      if (parsed) batch.push({ input, record: parsed });
      if (batch.length >= BATCH_SIZE) { await flush(batch); batch = []; }
    }
    await flush(batch);
  } finally {
    await rejects.close();
  }
  return withTiming(report, started);
}

async function parseLine(
  input: InputLine, sites: SiteCatalog, context: NormaliseContext, now: number, reject: (input: InputLine, reason: string, field?: string) => Promise<void>,
): Promise<NormalisedRecord | null> {
  let json: unknown;
  try {
    json = JSON.parse(input.text);
  } catch {
    await reject(input, 'invalid JSON');
    return null;
  }
  const raw = RawRecord.safeParse(json);
  if (!raw.success) {
    const issue = raw.error.issues[0];
    await reject(input, `invalid record: ${issue.path.join('.') || 'record'}: ${issue.message}`, issue.path.join('.') || undefined);
    return null;
  }
  if (!sites.has(raw.data.source)) {
    await reject(input, `unknown site "${raw.data.source}" (not in src/config/sites.json)`, 'source');
    return null;
  }
  try {
    const record = normaliseRecord(raw.data, context);
    if (record.collectedAt > now + FUTURE_TOLERANCE_MS) {
      await reject(input, 'collected_at is in the future', 'collected_at');
      return null;
    }
    return record;
  } catch (error) {
    if (error instanceof NormaliseError) {
      await reject(input, error.message, error.field);
      return null;
    }
    throw error;
  }
}

function withTiming(report: LoadReport, started: bigint): LoadReport {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { ...report, seconds: Math.round(seconds * 100) / 100, records_per_second: seconds > 0 ? Math.round(report.read / seconds) : 0 };
}
