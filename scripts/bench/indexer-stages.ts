/**
 * The indexer's physical limits, the counterpart of the API benchmark's raw store time: each stage
 * of a load timed alone, in this process, on the first records of the benchmark's sample, without
 * deduplication and without a second thread:
 *   read     gunzip + NDJSON lines (indexer/read.ts)
 *   parse    JSON, the raw-record schema, normalisation, redaction, content hash (indexer/parse.ts;
 *            the parse worker's whole job in a load)
 *   merge    a new listing from its record (indexer/merge.ts mergeRecord)
 *   write    upsertMany into a FRESH SQLite store in bulk mode, as a load writes (toRow, the row, its
 *            features row, the indexes a load keeps, the commits)
 *   build    the bulk mode's final build over what was written (FTS5, deferred indexes, R*Tree)
 * A load does all of this plus the grouping (candidates read from the store, clustering, group
 * fields), so 1e6 / (sum of the per-record times) bounds what one thread can load, and the target
 * (8 000 records/s, INDEXER_TARGETS) leaves 125 µs per record for all of it.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readLines, type InputLine } from '../../indexer/read.js';
import { parseRecord } from '../../indexer/parse.js';
import { mergeRecord, type MergeClock } from '../../indexer/merge.js';
import { BATCH_SIZE } from '../../indexer/load.js';
import type { NormalisedRecord } from '../../indexer/normalise.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { listingId, type StoredListing } from '../../src/core/model/stored.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { integer, markdownTable } from './report.js';

export const STAGES = ['read', 'parse', 'merge', 'write', 'build'] as const;
export type StageName = (typeof STAGES)[number];

export interface StageTiming {
  stage: StageName;
  /** Records (read, parse), listings (merge, write, build) the stage handled. */
  items: number;
  seconds: number;
}

export interface StagesReport {
  stages: StageTiming[];
  /** Lines the parse refused (they go to the rejects file in a load). */
  rejected: number;
  /** Rows of the scratch store at the end: what the write stage stored. */
  storedRows: number;
}

function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * Times each stage over the first `limit` records of `sampleFile`, writing into a new store in
 * `scratchDir` (which must not hold one). Streams batch by batch: memory does not grow with `limit`.
 */
export async function measureStages(sampleFile: string, limit: number, scratchDir: string): Promise<StagesReport> {
  const sites = loadSites();
  const context = { communes: loadCommunes(), siteName: (source: string) => sites.get(source)?.name };
  const spent = new Map<StageName, number>(STAGES.map((s) => [s, 0]));
  const items = new Map<StageName, number>(STAGES.map((s) => [s, 0]));
  const add = (stage: StageName, seconds: number, count: number) => {
    spent.set(stage, spent.get(stage)! + seconds);
    items.set(stage, items.get(stage)! + count);
  };
  mkdirSync(scratchDir, { recursive: true });
  const store = new SqliteListingStore(path.join(scratchDir, 'listings.sqlite'), { cacheMiB: 16 });
  let rejected = 0;
  let changeSeq = 0;
  try {
    const writeBatch = async (lines: InputLine[]) => {
      let start = process.hrtime.bigint();
      const parsed: { record: NormalisedRecord; hash: string }[] = [];
      for (const line of lines) {
        const outcome = parseRecord(line.text, sites, context);
        if (outcome.ok) parsed.push({ record: outcome.record, hash: outcome.contentHash });
        else rejected++;
      }
      add('parse', secondsSince(start), lines.length);

      start = process.hrtime.bigint();
      const clock: MergeClock = { now: Date.now(), nextChangeSeq: () => ++changeSeq };
      const listings = new Map<string, StoredListing>();
      for (const { record, hash } of parsed) {
        const id = listingId(record.content.source, record.content.reference);
        const outcome = mergeRecord(record, listings.get(id), clock, hash);
        if (outcome.kind === 'write') listings.set(id, outcome.listing);
      }
      add('merge', secondsSince(start), parsed.length);

      start = process.hrtime.bigint();
      await store.upsertMany([...listings.values()]);
      add('write', secondsSince(start), listings.size);
    };

    let bulkEnd = 0n;
    await store.duringBulkLoad(async () => {
      const lines = readLines([sampleFile]);
      let batch: InputLine[] = [];
      let read = 0;
      for (;;) {
        const start = process.hrtime.bigint();
        const next = read < limit ? await lines.next() : { done: true as const, value: undefined };
        add('read', secondsSince(start), next.done ? 0 : 1);
        if (!next.done) {
          batch.push(next.value);
          read++;
        }
        if (batch.length >= BATCH_SIZE || (next.done && batch.length > 0)) {
          await writeBatch(batch);
          batch = [];
        }
        if (next.done) break;
      }
      await lines.return(undefined);
      bulkEnd = process.hrtime.bigint();
    });
    // duringBulkLoad returns after the bulk mode's final build: that time is the build stage.
    add('build', secondsSince(bulkEnd), items.get('write')!);
    return { stages: STAGES.map((stage) => ({ stage, items: items.get(stage)!, seconds: spent.get(stage)! })), rejected, storedRows: await store.count() };
  } finally {
    await store.close();
  }
}

/** µs per item of a stage. */
export function microsPerItem(timing: StageTiming): number {
  return timing.items > 0 ? (timing.seconds * 1e6) / timing.items : 0;
}

/** µs per record that the target (records/s end to end, INDEXER_TARGETS) leaves for everything. */
export const TARGET_MICROS_PER_RECORD = 1e6 / 8_000;

const STAGE_TITLES: Record<StageName, string> = {
  read: 'read: gunzip + lines',
  parse: 'parse: JSON, schema, normalise, redact, hash',
  merge: 'merge: a listing from its record',
  write: 'write: upsertMany in bulk mode (rows, features, kept indexes, commits)',
  build: 'build: final index build of the bulk mode',
};

/**
 * The stages as a table, then what they bound. `loadSecondsPerRecord`: the load's write phase per
 * record (its main thread, the parse worker beside it), to show what the grouping adds.
 */
export function stagesTable(report: StagesReport, loadSecondsPerRecord: number, cores: number): string {
  const micros = new Map(report.stages.map((t) => [t.stage, microsPerItem(t)]));
  const rows = report.stages.map((t) => {
    const us = micros.get(t.stage)!;
    return [
      STAGE_TITLES[t.stage],
      integer(t.items),
      t.seconds.toFixed(2),
      us.toFixed(1),
      us > 0 ? integer(Math.round(1e6 / us)) : '-',
      `${Math.round((us / TARGET_MICROS_PER_RECORD) * 100)} %`,
    ];
  });
  const of = (...names: StageName[]) => names.reduce((sum, name) => sum + micros.get(name)!, 0);
  const allStages = of(...STAGES);
  // In a load the parse worker reads and parses on the second core; the load's thread does the rest.
  const loadThread = of('merge', 'write', 'build');
  const twoThreads = Math.max(of('read', 'parse'), loadThread);
  const loadMicros = loadSecondsPerRecord * 1e6;
  return [
    markdownTable(['stage', 'items', 'seconds', 'µs each', 'alone: per second', `of the ${TARGET_MICROS_PER_RECORD} µs a record`], rows),
    '',
    `All stages: ${allStages.toFixed(1)} µs a record, at most ${integer(Math.round(1e6 / allStages))} records/s on one thread without deduplication; ` +
      `read + parse on a second core as in a load: at most ${integer(Math.round(1e6 / twoThreads))} records/s (target 8 000, ${TARGET_MICROS_PER_RECORD} µs a record).`,
    // Whatever the threads, the cores bound the CPU a record may take: each stage is weighed against it.
    `CPU budget on ${cores} core${cores === 1 ? '' : 's'}: ${(cores * TARGET_MICROS_PER_RECORD).toFixed(0)} µs a record for everything at 8 000 records/s; ` +
      `read + parse alone take ${of('read', 'parse').toFixed(1)}, merge + write + build alone ${loadThread.toFixed(1)}.`,
    `The load above wrote a record every ${loadMicros.toFixed(1)} µs in its write phase (main thread); merge and write alone take ${of('merge', 'write').toFixed(1)}: ` +
      `the grouping (block candidates, clustering, group fields) and what a bigger store adds to the writes take the other ${Math.max(0, loadMicros - of('merge', 'write')).toFixed(1)} µs.`,
    `Lines refused by the parse: ${integer(report.rejected)}; rows in the scratch store: ${integer(report.storedRows)}.`,
  ].join('\n');
}
