/**
 * The messages of one of the indexer's worker threads (the parse worker, the grouping worker), in
 * order, as they arrive. A failure in the worker, or its exit with a non-zero code, is thrown; the
 * sequence ends when the worker exits; a consumer that stops early (its load failed, or it read the
 * worker's last message) terminates the worker.
 */
import type { MessagePort, Transferable, Worker } from 'node:worker_threads';

export async function* workerMessages<T>(worker: Worker, name: string): AsyncGenerator<T> {
  const queue: T[] = [];
  let failure: Error | null = null;
  let exited = false;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (message: T) => {
    queue.push(message);
    signal();
  });
  worker.on('error', (error: unknown) => {
    failure = error instanceof Error ? error : new Error(`${name} failed: ${JSON.stringify(error)}`);
    signal();
  });
  worker.on('exit', (code) => {
    exited = true;
    if (code !== 0) failure ??= new Error(`${name} exited with code ${code}`);
    signal();
  });
  try {
    for (;;) {
      while (queue.length === 0 && failure === null && !exited)
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      const message = queue.shift();
      if (message !== undefined) yield message;
      else if (failure) throw failure;
      else return;
    }
  } finally {
    if (!exited) await worker.terminate();
  }
}

/**
 * The worker's side: posts its messages at most `maxAhead` ahead of those the load has taken (the load
 * answers each one it has taken with any message), so what a worker holds in flight stays bounded.
 */
export function boundedPoster(port: MessagePort, maxAhead: number): (message: unknown, transfer?: Transferable[]) => Promise<void> {
  let ahead = 0;
  let taken: (() => void) | null = null;
  port.on('message', () => {
    ahead--;
    taken?.();
  });
  return async (message, transfer) => {
    while (ahead >= maxAhead)
      await new Promise<void>((resolve) => {
        taken = resolve;
      });
    taken = null;
    ahead++;
    port.postMessage(message, transfer);
  };
}
