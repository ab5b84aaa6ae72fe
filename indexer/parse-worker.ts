/**
 * The parse worker (a worker thread started by parsed-lines.ts): reads the input files and parses
 * every line (parse.ts) on the second core while the load's thread groups and writes. It sends the
 * lines in order, in chunks, with at most MAX_CHUNKS_AHEAD chunks not yet taken by the load, so its
 * lead (and the memory it holds) is bounded whatever the input size.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readLines } from './read.js';
import { parseInput } from './parse.js';
import { SiteCatalog, type Site } from '../src/core/model/sites.js';
import { loadCommunes } from '../src/core/refdata/communes.js';
import type { ParsedLine, WorkerMessage } from './parsed-lines.js';
import { boundedPoster } from './worker-messages.js';

export const CHUNK_LINES = 250;
export const MAX_CHUNKS_AHEAD = 8;

async function run(port: NonNullable<typeof parentPort>, files: string[], siteList: Site[]): Promise<void> {
  const sites = new SiteCatalog(siteList);
  const context = { communes: loadCommunes(), siteName: (source: string) => sites.get(source)?.name };
  const send: (message: WorkerMessage) => Promise<void> = boundedPoster(port, MAX_CHUNKS_AHEAD);
  let chunk: ParsedLine[] = [];
  for await (const input of readLines(files)) {
    chunk.push({ input, outcome: parseInput(input, sites, context) });
    if (chunk.length >= CHUNK_LINES) {
      await send({ lines: chunk });
      chunk = [];
    }
  }
  if (chunk.length > 0) await send({ lines: chunk });
  port.postMessage({ lines: [], done: true } satisfies WorkerMessage);
  port.close();
}

if (parentPort) {
  const { files, sites } = workerData as { files: string[]; sites: Site[] };
  await run(parentPort, files, sites);
}
