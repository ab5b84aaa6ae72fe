/** Worker thread of the sample writer: draws the blocks it is asked for (see blocks.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { serializeBlock } from './blocks.js';
import { createEnv } from './generate.js';

const options = workerData as { seed: number; now: number; labels: boolean };
const env = createEnv({ seed: options.seed, now: new Date(options.now) });
const port = parentPort!;

port.on('message', (block: number) => {
  const payload = serializeBlock(env, block, options.labels);
  const transfer = [payload.records.buffer as ArrayBuffer];
  if (payload.labels) transfer.push(payload.labels.buffer as ArrayBuffer);
  port.postMessage(payload, transfer);
});
