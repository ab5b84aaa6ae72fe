/**
 * A client whose HTTP connection is @elastic/elasticsearch-mock, and the helpers the tests share:
 * ResponseError built from the CJS module (the class the mock checks with instanceof:
 * the client is a dual CommonJS/ES module package), bulk responses, a record of every request the "cluster" received, and a closed port
 * for "the cluster is down".
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { Client } from '@elastic/elasticsearch';

const require = createRequire(import.meta.url);
const Mock: typeof import('@elastic/elasticsearch-mock', { with: { 'resolution-mode': 'require' }}).default = require('@elastic/elasticsearch-mock');
const cjsErrors = (require('@elastic/elasticsearch') as typeof import('@elastic/elasticsearch')).errors;

export type MockPattern = { method: string; path: string; querystring?: Record<string, string>; body?: unknown };
export type Resolver = (params: MockPattern & { body: any }) => unknown;

export interface MockCluster {
  mock: InstanceType<typeof Mock>;
  client: Client;
  /** Every request, in order: method, path and parsed body (NDJSON bodies as arrays). */
  requests: { method: string; path: string; body: any }[];
  on(method: string, path: string, resolver: Resolver): void;
}

export function mockCluster(): MockCluster {
  const mock = new Mock();
  const requests: MockCluster['requests'] = [];
  // The mock's connection has no close(); the store's close() closes the client's pool.
  const MockConnection = mock.getConnection() as any;
  const Connection = class extends MockConnection {
    async close(): Promise<void> {}
  };
  const client = new Client({ node: 'http://localhost:9200', Connection: Connection as any, maxRetries: 0 });
  return {
    mock,
    client,
    requests,
    on(method, path, resolver) {
      mock.add({ method, path }, (params) => {
        requests.push({ method: params.method as string, path: params.path as string, body: params.body });
        return resolver(params as never) as Record<string, unknown>;
      });
    },
  };
}

export function responseError(statusCode: number, body: unknown): Error {
  return new cjsErrors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never } as never);
}

export function connectionError(message = 'connect ECONNREFUSED 127.0.0.1:9200'): Error {
  return new cjsErrors.ConnectionError(message);
}

export const errorBody = (status: number, type: string, reason = type) => ({ error: { type, reason, root_cause: [{ type, reason }] }, status });

type BulkOutcome = 'ok' | { status: number; type: string; reason?: string };

/** A _bulk answer: one item per action line of the request, `ok` or an error status. */
export function bulkResponse(requestBody: any[], outcomeOf: (id: string) => BulkOutcome): unknown {
  const items = actionsOf(requestBody).map(({ action }) => {
    const outcome = outcomeOf(action._id);
    return outcome === 'ok'
      ? { index: { _index: action._index, _id: action._id, _version: action.version, result: 'created', status: 201 } }
      : { index: { _index: action._index, _id: action._id, status: outcome.status, error: { type: outcome.type, reason: outcome.reason ?? outcome.type } } };
  });
  return { took: 3, errors: items.some((i) => i.index.status >= 300), items };
}

/** The (action, document) pairs of a parsed NDJSON bulk body. */
export function actionsOf(requestBody: any[]): { action: any; document: any }[] {
  const pairs: { action: any; document: any }[] = [];
  for (let i = 0; i < requestBody.length; i += 2) pairs.push({ action: requestBody[i].index, document: requestBody[i + 1] });
  return pairs;
}

export const idsOf = (requestBody: any[]): string[] => actionsOf(requestBody).map((p) => p.action._id);

/** A local port with nothing listening: connections are refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** What Elasticsearch returns for one hit of a search with the store's `_source` filter. */
export function hitOf(source: object, sort?: (string | number)[]): object {
  return { _index: 'annonces-v1', _id: (source as { id: string }).id, _score: null, _source: source, ...(sort ? { sort } : {}) };
}
