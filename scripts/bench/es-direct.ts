/**
 * The raw Elasticsearch baseline of a scenario: the very requests the API sends to the node for the
 * scenario's paths, captured once from the adapter (the client's `request` diagnostic event), then
 * replayed straight to the node by the same load generator with the same connections. What the API
 * reaches against it is what the API costs on top of the engine, HTTP to the client included.
 *
 * An API request may send several requests (the feed reads the writer lock before its page): the
 * baseline replays each path's whole sequence and counts one API request per sequence.
 */
import autocannon from 'autocannon';
import type { Client } from '@elastic/elasticsearch';
import type { StoreCall } from './raw-store.js';

export interface EsRequest {
  method: string;
  path: string;
  body: string | null;
}

/**
 * Paths captured per scenario: as many distinct questions as the API's load asks (scenarios draw 500
 * at most), so the node's request cache serves the replay no more than it serves the API.
 */
export const CAPTURED_PATHS = 500;

/** The requests each call sends through `client`, call by call. */
export async function captureRequests(client: Client, calls: StoreCall[]): Promise<EsRequest[][]> {
  let current: EsRequest[] = [];
  const listener = (
    _error: unknown,
    event: { meta?: { request?: { params?: { method?: string; path?: string; body?: unknown; querystring?: unknown } } } } | null,
  ) => {
    const params = event?.meta?.request?.params;
    if (!params?.method || !params.path) return;
    const query = typeof params.querystring === 'string' && params.querystring ? `?${params.querystring}` : '';
    const body = params.body === undefined || params.body === null || params.body === '' ? null : String(params.body);
    current.push({ method: params.method, path: params.path + query, body });
  };
  client.diagnostic.on('request', listener);
  const sequences: EsRequest[][] = [];
  try {
    for (const call of calls) {
      current = [];
      await call();
      sequences.push(current);
    }
  } finally {
    client.diagnostic.off('request', listener);
  }
  return sequences;
}

export interface DirectRun {
  /** API-request equivalents per second: completed requests over the mean sequence length. */
  rps: number;
  requests: number;
  /** Answers of an overloaded or failing node (429, 5xx); a 404 is an answer (the writer lock is absent). */
  refused: number;
  failures: number;
}

/** The sequences replayed on `url` with `connections` connections for `seconds`, in order, cycling. */
export async function replayOnNode(url: string, sequences: EsRequest[][], connections: number, seconds: number): Promise<DirectRun> {
  const flat = sequences.flat();
  if (flat.length === 0) throw new Error('no Elasticsearch request was captured');
  const perCall = flat.length / sequences.length;
  let next = 0;
  let refused = 0;
  let responses = 0;
  const started = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 120,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const r = flat[next++ % flat.length];
              request.method = r.method as autocannon.Request['method'];
              request.path = r.path;
              request.body = r.body ?? undefined;
              // Headers of its own: autocannon writes a body's Content-Length into the headers object
              // it is given, so a GET after a POST on the same connection announced a body it never
              // sent, and the node waited for it (the feed's baseline, lock then page, ran at 15 req/s).
              request.headers = r.body === null ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' };
              return request;
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client: unknown, statusCode: number) => {
      responses++;
      if (statusCode === 429 || statusCode >= 500) refused++;
    });
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return { rps: responses / perCall / elapsed, requests: responses, refused, failures: result.errors };
}
