/**
 * The Elasticsearch client, built from the service configuration (src/config/config.ts: ES_URL,
 * ES_API_KEY or ES_USERNAME/ES_PASSWORD, ES_CA_FILE).
 *
 * @elastic/elasticsearch 8.x sends `compatible-with=8`, which 8.x and 9.x clusters both accept (a 9.x
 * client would send `compatible-with=9`, which an 8.x cluster refuses: elastic/elasticsearch-js issue 2909).
 */
import { readFileSync } from 'node:fs';
import { Client, type ClientOptions } from '@elastic/elasticsearch';

export interface ElasticsearchConnection {
  /** One node's URL, or several separated by commas: the client spreads requests over them all and skips a dead one. */
  url: string;
  apiKey?: string;
  username?: string;
  password?: string;
  /** PEM file of the CA that signed the cluster's HTTP certificate (a self-managed cluster with TLS). */
  caFile?: string;
}

export function createElasticsearchClient(connection: ElasticsearchConnection, overrides: Partial<ClientOptions> = {}): Client {
  const options: ClientOptions = {
    nodes: nodeUrls(connection.url),
    name: 'annonces-api',
    // A search page should fail fast when the cluster is in trouble (the API answers 503 and the
    // client retries); bulk writes use their own longer policy (bulk-writer.ts).
    requestTimeout: 10_000,
    maxRetries: 1,
    ...overrides,
  };
  if (connection.apiKey) options.auth = { apiKey: connection.apiKey };
  else if (connection.username) options.auth = { username: connection.username, password: connection.password ?? '' };
  if (connection.caFile) options.tls = { ca: readFileSync(connection.caFile) };
  return new Client(options);
}

/**
 * The client of a batch command (the indexer's loads, reindex, index maintenance): a read of a load
 * that waits 10 s on a busy cluster is worth waiting for, not worth failing a load of an hour for
 * (a 1M first build on a saturated node died at 90 % on one block read's timeout). Reads are retried;
 * bulk writes keep their own policy (bulk-writer.ts).
 */
export const BATCH_CLIENT_OPTIONS: Partial<ClientOptions> = { requestTimeout: 120_000, maxRetries: 3 };

/** The URLs of `ES_URL`: one, or several separated by commas (blanks around them ignored). */
export function nodeUrls(url: string): string[] {
  return url
    .split(',')
    .map((node) => node.trim())
    .filter((node) => node !== '');
}
