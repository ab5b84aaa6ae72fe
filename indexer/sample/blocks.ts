/**
 * Blocks of the sample catalogue as NDJSON bytes, drawn in this thread or by worker threads.
 * Both paths serialise with the same function, so the output does not depend on the number of
 * workers; workers only spread the drawing over the machine's cores.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createEnv, generateBlock, type SampleEnv } from './generate.js';

export interface BlockPayload {
  block: number;
  /** NDJSON lines of the block's records. */
  records: Uint8Array;
  /** NDJSON lines `{"source","reference","property","shape"}`, when labels were asked for. */
  labels: Uint8Array | null;
  /** Ground-truth property of each line, in order. */
  propertyIds: string[];
}

export interface BlockSourceOptions {
  seed: number;
  /** The resolved reference date (see effectiveNow), the same for every thread. */
  now: Date;
  labels: boolean;
}

/** Blocks in order, from 0, until the consumer stops asking; `close` frees any worker. */
export interface BlockSource {
  next(): Promise<BlockPayload>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

export function serializeBlock(env: SampleEnv, block: number, withLabels: boolean): BlockPayload {
  const records = generateBlock(env, block);
  let lines = '';
  let labelLines = '';
  const propertyIds: string[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const { record, propertyId, shape, relistedFrom } = records[i];
    lines += `${JSON.stringify(record)}\n`;
    if (withLabels) {
      const label = { source: record.source, reference: String(record.reference), property: propertyId, shape, relisted_from: relistedFrom };
      labelLines += `${JSON.stringify(label)}\n`;
    }
    propertyIds[i] = propertyId;
  }
  return { block, records: encoder.encode(lines), labels: withLabels ? encoder.encode(labelLines) : null, propertyIds };
}

/** The first `lines` lines of NDJSON bytes. */
export function firstLines(bytes: Uint8Array, lines: number): Uint8Array {
  let seen = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10 && ++seen === lines) return bytes.subarray(0, i + 1);
  }
  return bytes;
}

export function inThreadBlocks(opts: BlockSourceOptions): BlockSource {
  const env = createEnv(opts);
  let block = 0;
  return {
    next: async () => serializeBlock(env, block++, opts.labels),
    close: async () => {},
  };
}

/** Worker threads by default when the machine has at least two cores. */
export function defaultWorkerCount(): number {
  return availableParallelism() >= 2 ? 2 : 0;
}

/**
 * Workers draw blocks round-robin (block b by worker b mod n), a few blocks ahead of the writer,
 * and hand their bytes over without copying.
 */
export function workerBlocks(opts: BlockSourceOptions, count: number, ahead = 4): BlockSource {
  const workers = Array.from({ length: count }, () => startWorker(opts));
  const pending = new Map<number, { resolve: (p: BlockPayload) => void; reject: (e: unknown) => void; promise: Promise<BlockPayload> }>();
  let failure: unknown = null;
  const failAll = (error: unknown) => {
    failure ??= error;
    for (const entry of pending.values()) entry.reject(error);
  };
  for (const worker of workers) {
    worker.on('message', (payload: BlockPayload) => pending.get(payload.block)?.resolve(payload));
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      if (code !== 0) failAll(new Error(`sample worker exited with code ${code}`));
    });
  }
  let requested = 0;
  let nextBlock = 0;
  const request = (block: number) => {
    let resolve!: (p: BlockPayload) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<BlockPayload>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => {});
    pending.set(block, { resolve, reject, promise });
    if (failure) reject(failure);
    else workers[block % workers.length].postMessage(block);
  };
  return {
    async next() {
      while (requested < nextBlock + ahead * workers.length) request(requested++);
      const entry = pending.get(nextBlock)!;
      const payload = await entry.promise;
      pending.delete(nextBlock++);
      return payload;
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/**
 * Under tsx (the project runs TypeScript directly) a worker does not inherit the TypeScript
 * loader, so its entry registers tsx before importing worker.ts.
 */
function startWorker(opts: BlockSourceOptions): Worker {
  const workerData = { seed: opts.seed, now: opts.now.getTime(), labels: opts.labels };
  if (import.meta.url.endsWith('.js')) return new Worker(new URL('./worker.js', import.meta.url), { workerData });
  const entry = new URL('./worker.ts', import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(tsxEsmApi())};\nregister();\nawait import(${JSON.stringify(entry)});\n`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData });
}

/**
 * The ESM build of tsx's API, found through its package.json: import.meta.resolve is missing when
 * tsx loads this module as CommonJS (under mocha), and the CommonJS build cannot register hooks
 * in a worker.
 */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> };
  const root = path.dirname(require.resolve('tsx/package.json'));
  return pathToFileURL(path.join(root, manifest.exports['./esm/api'].import.default)).href;
}
