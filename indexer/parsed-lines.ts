/**
 * The parsed lines of a load, in input order: each NDJSON line with its parse outcome (parse.ts).
 * Either parsed in the load's own thread (parseInline), or in a worker thread (parseInWorker,
 * parse-worker.ts) so that parsing, validation, normalisation and redaction use the second core
 * while the load groups and writes. Both yield exactly the same sequence.
 */
import { Worker } from 'node:worker_threads';
import { readLines, type InputLine } from './read.js';
import { parseInput, type ParseOutcome } from './parse.js';
import { PARSE_WORKER_LIMITS } from './heap.js';
import { workerMessages } from './worker-messages.js';
import type { NormaliseContext } from './normalise.js';
import type { SiteCatalog } from '../src/core/model/sites.js';

export interface ParsedLine {
  input: InputLine;
  outcome: ParseOutcome;
}

/** What the worker posts: a chunk of lines in order; the last message has `done`. */
export interface WorkerMessage {
  lines: ParsedLine[];
  done?: boolean;
}

export async function* parseInline(files: readonly string[], sites: SiteCatalog, context: NormaliseContext): AsyncGenerator<ParsedLine> {
  for await (const input of readLines(files)) yield { input, outcome: parseInput(input, sites, context) };
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
  for await (const message of workerMessages<WorkerMessage>(worker, 'parse worker')) {
    if (message.done) return;
    worker.postMessage(0);
    yield* message.lines;
  }
  throw new Error('parse worker stopped before the end of the input');
}
