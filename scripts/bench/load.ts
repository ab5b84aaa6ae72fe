/**
 * The load generator: autocannon with C connections against the server child. Every request takes
 * the next path of the scenario's list (setupRequest), so consecutive requests ask different
 * questions. Latencies are kept raw from autocannon's 'response' events (float ms) rather than read
 * from its histogram, which rounds to whole milliseconds, too coarse for sub-millisecond p50s.
 */
import autocannon from 'autocannon';
import { percentile } from './stats.js';

export interface LoadRun {
  requests: number;
  /** Requests per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  /** Responses with a status outside 2xx. */
  non2xx: number;
  /** Socket errors and timeouts (autocannon's `errors`, which includes its `timeouts`). */
  failures: number;
  /** What the first failure was. */
  firstFailure: string | null;
  /** First non-2xx status seen, to say what went wrong. */
  firstBadStatus: number | null;
  /** Bytes received per response (headers and body, as sent on the wire). */
  bytesPerResponse: number;
}

export interface LoadSpec {
  base: string;
  key: string;
  paths: readonly string[];
  connections: number;
  seconds: number;
  /** Extra request headers (e.g. Accept-Encoding). */
  headers?: Record<string, string>;
}

export async function runLoad(spec: LoadSpec): Promise<LoadRun> {
  if (spec.paths.length === 0) throw new Error('a load needs at least one path');
  let next = 0;
  const latencies: number[] = [];
  let non2xx = 0;
  let bytes = 0;
  let firstBadStatus: number | null = null;
  const basePath = new URL(spec.base).pathname;
  const started = process.hrtime.bigint();
  let finish!: (outcome: { error: Error | null; result: autocannon.Result }) => void;
  const finished = new Promise<{ error: Error | null; result: autocannon.Result }>((resolve) => {
    finish = resolve;
  });
  const instance = autocannon(
    {
      url: spec.base,
      connections: spec.connections,
      duration: spec.seconds,
      // Under 50 connections a slow scenario queues: a request may wait 50 service times.
      timeout: 120,
      headers: { 'x-api-key': spec.key, accept: 'application/json', ...spec.headers },
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => {
            request.path = basePath + spec.paths[next++ % spec.paths.length];
            return request;
          },
        },
      ],
    },
    (error, result) => finish({ error, result }),
  );
  let firstFailure: string | null = null;
  instance.on('reqError', (error: Error) => {
    firstFailure ??= error.message;
  });
  instance.on('response', (_client: unknown, statusCode: number, responseBytes: number, responseTime: number) => {
    latencies.push(responseTime);
    bytes += responseBytes;
    if (statusCode < 200 || statusCode > 299) {
      non2xx++;
      firstBadStatus ??= statusCode;
    }
  });
  const { error, result } = await finished;
  if (error) throw error;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx,
    failures: result.errors,
    firstFailure,
    firstBadStatus,
    bytesPerResponse: latencies.length ? bytes / latencies.length : 0,
  };
}

/**
 * Waits until the server has worked off the requests a finished load left behind (autocannon
 * closes its sockets at the end, but a single-threaded server still answers every request it had
 * read): /health goes to the back of the queue, so its answer means the backlog is gone.
 */
export async function waitUntilIdle(base: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const started = Date.now();
    await fetch(`${base}/health`).then(
      (r) => r.arrayBuffer(),
      () => undefined,
    );
    if (Date.now() - started < 200) return;
  }
}
