/**
 * The parsed lines of a load, in input order: each NDJSON line with its parse outcome (parse.ts).
 * Either parsed in the load's own thread (parseInline), or in a worker thread (parseInWorker,
 * parse-worker.ts) so that parsing, validation, normalisation and redaction use the second core
 * while the load groups and writes. Both yield exactly the same sequence.
 */
import { Worker } from 'node:worker_threads';
import { readLines, type InputLine } from './read.js';
import { parseRecord, type ParseOutcome } from './parse.js';
import { PARSE_WORKER_LIMITS } from './heap.js';
import type { NormaliseContext } from './normalise.js';
import type { SiteCatalog } from '../src/listings/sites.js';

export interface ParsedLine { input: InputLine; outcome: ParseOutcome }

/** What the worker posts: a chunk of lines in order; the last message has `done`. */
export interface WorkerMessage { lines: ParsedLine[]; done?: boolean }

export async function* parseInline(files: readonly string[], sites: SiteCatalog, context: NormaliseContext): AsyncGenerator<ParsedLine> {
  for await (const input of readLines(files)) yield { input, outcome: parseRecord(input.text, sites, context) };
}

/**
 * Parses in a worker thread. The worker uses the commune table of loadCommunes() and the given
 * sites. Stopping early (the load failed) terminates the worker; a failure in the worker (an
 * unreadable file) is thrown here.
 */
export async function* parseInWorker(files: readonly string[], sites: SiteCatalog): AsyncGenerator<ParsedLine> {
  const worker = new Worker(new URL('./parse-worker-entry.mjs', import.meta.url), {
    workerData: { files: [...files], sites: sites.sites },
    resourceLimits: PARSE_WORKER_LIMITS,
  });
  const queue: WorkerMessage[] = [];
  let failure: Error | null = null;
  let exited = false;
  let wake: (() => void) | null = null;
  const signal = () => { wake?.(); wake = null; };
  worker.on('message', (message: WorkerMessage) => { queue.push(message); signal(); });
  worker.on('error', (error) => { failure = error; signal(); });
  worker.on('exit', (code) => {
    exited = true;
    if (code !== 0) failure ??= new Error(`parse worker exited with code ${code}`);
    signal();
  });
  try {
    for (;;) {
      while (queue.length === 0 && failure === null && !exited) await new Promise<void>((resolve) => { wake = resolve; });
      const message = queue.shift();
      if (message === undefined) {
        if (failure) throw failure;
        throw new Error('parse worker stopped before the end of the input');
      }
      if (message.done) return;
      worker.postMessage(0);
      yield* message.lines;
    }
  } finally {
    if (!exited) await worker.terminate();
  }
}
