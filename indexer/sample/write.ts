/**
 * Writes a sample catalogue to NDJSON (gzip when the name ends in .gz), and optionally the
 * ground-truth labels ({"source","reference","property"} per line), honouring back-pressure:
 * lines are batched into chunks and the writer waits for 'drain' whenever a stream is full.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';
import { DEFAULT_SEED, generateSample, type SampleStats } from './generate.js';

export interface WriteSampleOptions {
  count: number;
  out: string;
  labels?: string;
  seed?: number;
  now?: Date;
  /** Called every `progressEvery` records with the number written so far. */
  onProgress?: (written: number) => void;
  progressEvery?: number;
}

export interface SampleSummary {
  records: number;
  properties: number;
  multi_site_properties: number;
  neighbour_flats: number;
  seed: number;
  out: string;
  labels: string | null;
  seconds: number;
}

/** Chunks of about this many characters are handed to the streams. */
const CHUNK_CHARS = 256 * 1024;

interface Sink {
  write(chunk: string): Promise<void> | undefined;
  close(): Promise<void>;
}

/** A file (gzipped when its name ends in .gz) that reports when it is full. */
function openSink(file: string): Sink {
  const fileStream = createWriteStream(file);
  const gzip = file.endsWith('.gz') ? createGzip({ level: 4, memLevel: 9, chunkSize: 64 * 1024, strategy: constants.Z_DEFAULT_STRATEGY }) : null;
  const head: Writable = gzip ?? fileStream;
  const done = gzip ? pipeline(gzip, fileStream) : once(fileStream, 'close').then(() => undefined);
  // Keep a rejection from going unhandled while no one awaits `done` yet; close() rethrows it.
  let failure: unknown = null;
  done.catch((error: unknown) => { failure = error; });
  return {
    write(chunk) {
      if (failure) throw failure;
      return head.write(chunk) ? undefined : waitForDrain(head, done);
    },
    async close() {
      head.end();
      await done;
    },
  };
}

/** Resolves on 'drain', rejects if the stream fails first (so a full disk never hangs the writer). */
function waitForDrain(stream: Writable, done: Promise<unknown>): Promise<void> {
  return Promise.race([once(stream, 'drain').then(() => undefined), done.then(() => undefined)]);
}

export async function writeSample(opts: WriteSampleOptions): Promise<SampleSummary> {
  const started = process.hrtime.bigint();
  const seed = opts.seed ?? DEFAULT_SEED;
  const stats: SampleStats = { properties: 0, multiSiteProperties: 0, neighbourFlats: 0 };
  const records = openSink(opts.out);
  const labels = opts.labels ? openSink(opts.labels) : null;
  const progressEvery = opts.progressEvery ?? 10_000;
  let recordChunk = '';
  let labelChunk = '';
  let written = 0;
  try {
    for (const { record, propertyId } of generateSample({ count: opts.count, seed, now: opts.now, stats })) {
      recordChunk += JSON.stringify(record) + '\n';
      if (labels) labelChunk += JSON.stringify({ source: record.source, reference: String(record.reference), property: propertyId }) + '\n';
      written++;
      if (recordChunk.length >= CHUNK_CHARS) {
        const full = [records.write(recordChunk), labels?.write(labelChunk)];
        recordChunk = '';
        labelChunk = '';
        await Promise.all(full);
      }
      if (opts.onProgress && written % progressEvery === 0) opts.onProgress(written);
    }
    if (recordChunk) await records.write(recordChunk);
    if (labels && labelChunk) await labels.write(labelChunk);
  } finally {
    await Promise.all([records.close(), labels?.close()]);
  }
  opts.onProgress?.(written);
  return {
    records: written,
    properties: stats.properties,
    multi_site_properties: stats.multiSiteProperties,
    neighbour_flats: stats.neighbourFlats,
    seed,
    out: opts.out,
    labels: opts.labels ?? null,
    seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100,
  };
}
