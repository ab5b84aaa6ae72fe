/**
 * A load on a busy Elasticsearch: the indexer waits for a slow read (BATCH_CLIENT_OPTIONS) where the
 * API fails fast. A proxy in front of the test node holds the first two searches of a load into a
 * built catalogue 11 s each, beyond the API's 10 s timeout and its one retry (a first build into an
 * empty alias may not read the index at all).
 */
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { cli } from '../support/cli.js';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { deleteAliasIndices, elasticsearchConnection, elasticsearchMissing, testAlias } from '../support/elasticsearch.js';
import { EXIT } from '../../indexer/exit-codes.js';

const HELD_MS = 11_000;

/** Forwards every request to the node; the first `held` searches wait HELD_MS before they go. */
function slowSearchProxy(target: string, held: number): Promise<{ url: string; heldSearches: () => number; close: () => void }> {
  let seen = 0;
  const server = http.createServer((req, res) => {
    const isSearch = /\/_search(\?|$)/.test(req.url ?? '');
    const wait = isSearch && seen++ < held ? HELD_MS : 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      }, wait);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        heldSearches: () => Math.min(seen, held),
        close: () => server.close(),
      }),
    ),
  );
}

describe('indexer on a slow Elasticsearch', function () {
  this.timeout(120_000);

  it('waits for reads slower than the API would: the load completes', async function () {
    const missing = elasticsearchMissing();
    if (missing) {
      if (process.env.REQUIRE_ALL_ENGINES) throw new Error(`elasticsearch is required here: ${missing}`);
      this.skip();
    }
    const connection = elasticsearchConnection()!;
    const client = new Client({ node: connection.url });
    const alias = testAlias('annonces-test-slow-reads');
    const proxy = await slowSearchProxy(connection.url, 2);
    const dir = mkdtempSync(path.join(tmpdir(), 'slow-reads-'));
    try {
      const first = writeNdjson([rawRecord(1), rawRecord(2), rawRecord(3)], 'first.ndjson', dir);
      const built = await cli('indexer/cli.ts', ['load', first], dir, { ES_URL: connection.url, ES_INDEX_ALIAS: alias });
      expect(built.code, built.stderr).to.equal(EXIT.ok);
      const next = writeNdjson([rawRecord(4), rawRecord(5), rawRecord(6)], 'next.ndjson', dir);
      const started = Date.now();
      const result = await cli('indexer/cli.ts', ['load', next], dir, { ES_URL: proxy.url, ES_INDEX_ALIAS: alias });
      expect(result.code, result.stderr).to.equal(EXIT.ok);
      expect(proxy.heldSearches(), 'searches the proxy held').to.equal(2);
      expect(Date.now() - started).to.be.at.least(2 * HELD_MS);
      await client.indices.refresh({ index: alias });
      expect((await client.count({ index: alias })).count).to.equal(6);
    } finally {
      proxy.close();
      await deleteAliasIndices(client, alias).catch(() => {});
      await client.close();
    }
  });
});
