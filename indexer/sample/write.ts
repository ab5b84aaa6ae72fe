/**
 * Writes a sample catalogue to NDJSON (gzip when the name ends in .gz), and optionally the
 * ground-truth labels ({"source","reference","property"} per line), honouring back-pressure: the
 * writer takes a block of lines at a time and waits for 'drain' whenever a stream is full.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { TransformOptions, Writable } from 'node:stream';
import { createGzip, type ZlibOptions } from 'node:zlib';
import { defaultWorkerCount, firstLines, inThreadBlocks, workerBlocks, type BlockPayload } from './blocks.js';
import { checkCount, countProperties, DEFAULT_SEED, effectiveNow, type SampleStats } from './generate.js';

export interface WriteSampleOptions {
  count: number;
  out: string;
  labels?: string;
  seed?: number;
  now?: Date;
  /** Worker threads drawing blocks; 0 draws in this thread. Same output either way. Default: 2 on a multi-core machine. */
  workers?: number;
  /** Called after each block with the number of records written so far. */
  onProgress?: (written: number) => void;
}

export interface SampleSummary {
  records: number;
  properties: number;
  multi_site_properties: number;
  neighbour_flats: number;
  seed: number;
  workers: number;
  out: string;
  labels: string | null;
  seconds: number;
}

const BUFFER_BYTES = 8 * 1024 * 1024;

interface Sink {
  write(chunk: Uint8Array): Promise<void> | undefined;
  close(): Promise<void>;
}

/** A file (gzipped when its name ends in .gz) that reports when it is full. */
function openSink(file: string): Sink {
  // Deep buffers let generation run ahead while gzip (on libuv's thread pool) and the disk catch
  // up; a few MB of lead, not an unbounded queue. Level 2 compresses about as well as the default
  // at a much higher speed on this NDJSON.
  const fileStream = createWriteStream(file, { highWaterMark: BUFFER_BYTES });
  const gzip = file.endsWith('.gz')
    ? createGzip({ level: 2, chunkSize: 256 * 1024, writableHighWaterMark: BUFFER_BYTES, readableHighWaterMark: BUFFER_BYTES } as ZlibOptions &
        TransformOptions)
    : null;
  const head: Writable = gzip ?? fileStream;
  const done = gzip ? pipeline(gzip, fileStream) : once(fileStream, 'close').then(() => undefined);
  // Keep a rejection from going unhandled while no one awaits `done` yet; close() rethrows it.
  let failure: unknown = null;
  done.catch((error: unknown) => {
    failure = error;
  });
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
  checkCount(opts.count);
  const seed = (opts.seed ?? DEFAULT_SEED) >>> 0;
  // Resolved once here so that every worker uses the very same reference date.
  const now = new Date(effectiveNow(opts.now));
  const workers = opts.workers ?? defaultWorkerCount();
  const stats: SampleStats = { properties: 0, multiSiteProperties: 0, neighbourFlats: 0 };
  const sourceOptions = { seed, now, labels: Boolean(opts.labels) };
  const records = openSink(opts.out);
  const labels = opts.labels ? openSink(opts.labels) : null;
  let source = workers > 0 ? workerBlocks(sourceOptions, workers) : inThreadBlocks(sourceOptions);
  let written = 0;
  let usedWorkers = workers;
  try {
    while (written < opts.count) {
      let payload: BlockPayload;
      try {
        payload = await source.next();
      } catch (error) {
        // Workers that cannot start (no TypeScript loader in this runtime...) fall back to this thread.
        if (written > 0 || usedWorkers === 0) throw error;
        await source.close();
        source = inThreadBlocks(sourceOptions);
        usedWorkers = 0;
        continue;
      }
      const take = Math.min(opts.count - written, payload.propertyIds.length);
      const whole = take === payload.propertyIds.length;
      countProperties(payload.propertyIds, take, stats);
      const pending = [
        records.write(whole ? payload.records : firstLines(payload.records, take)),
        payload.labels && labels?.write(whole ? payload.labels : firstLines(payload.labels, take)),
      ];
      written += take;
      opts.onProgress?.(written);
      await Promise.all(pending);
    }
  } finally {
    await source.close();
    await Promise.all([records.close(), labels?.close()]);
  }
  return {
    records: written,
    properties: stats.properties,
    multi_site_properties: stats.multiSiteProperties,
    neighbour_flats: stats.neighbourFlats,
    seed,
    workers: usedWorkers,
    out: opts.out,
    labels: opts.labels ?? null,
    seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100,
  };
}
