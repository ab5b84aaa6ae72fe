/**
 * The raw Elasticsearch baseline (scripts/bench/es-direct.ts): the requests the adapter sends are
 * captured call by call, and replayed to a node whole, one API request counted per sequence.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { captureRequests, replayOnNode } from '../../scripts/bench/es-direct.js';
import { ElasticsearchListingStore } from '../../src/adapters/elasticsearch/listing-store.js';
import { buildSearchBody } from '../../src/adapters/elasticsearch/search-body.js';
import type { SearchQuery } from '../../src/core/query/query.js';
import { mockCluster } from '../adapters/elasticsearch/mock-cluster.js';

const query: SearchQuery = {
  filter: { department: '75' },
  scope: { enteredFrom: 0, eligibleSites: null },
  grouped: true,
  sort: 'recent',
  pageSize: 25,
  page: 2,
  after: null,
};

describe('bench: the raw Elasticsearch baseline', () => {
  it('captures the very requests of each store call, in order', async () => {
    const cluster = mockCluster();
    cluster.on('POST', '/annonces/_search', () => ({ hits: { hits: [] } }));
    cluster.on('GET', '/annonces-state/_doc/:id', () => ({ _index: 'annonces-state', _id: 'writer-lock', found: false }));
    const store = new ElasticsearchListingStore(cluster.client, { alias: 'annonces' });
    const sequences = await captureRequests(cluster.client, [
      () => store.search(query),
      () => store.feed({ filter: {}, scope: query.scope, changedUntil: 1, pageSize: 10, after: null }),
    ]);
    expect(sequences).to.have.length(2);
    expect(sequences[0]).to.have.length(1);
    // The query string too: the response filter is part of the request the node answers.
    expect(sequences[0][0]).to.include({ method: 'POST', path: '/annonces/_search?filter_path=hits.hits._id%2Chits.hits.fields%2Chits.hits.sort' });
    expect(JSON.parse(sequences[0][0].body!)).to.deep.equal(JSON.parse(JSON.stringify(buildSearchBody(query))));
    // The feed reads the writer lock before its page: both are the API request's cost.
    expect(sequences[1].map((r) => r.method)).to.deep.equal(['GET', 'POST']);
    expect(sequences[1][0].path).to.match(/^\/annonces-state\/_doc\//);
    expect(sequences[1][1].path).to.match(/^\/annonces\/_search\?filter_path=/);
  });

  it('replays each sequence whole on the node and counts one API request per sequence', async () => {
    const seen: { method: string; url: string; body: string }[] = [];
    const server = createServer(async (req: IncomingMessage, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ method: req.method!, url: req.url!, body });
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await replayOnNode(
        url,
        [
          [
            { method: 'GET', path: '/missing', body: null },
            { method: 'POST', path: '/a/_search', body: '{"size":1}' },
          ],
        ],
        // One connection, so that it sends the GET after the POST (two would each send one of them).
        1,
        0.5,
      );
      expect(seen.length).to.be.greaterThan(10);
      expect(seen.find((r) => r.method === 'POST')).to.deep.equal({ method: 'POST', url: '/a/_search', body: '{"size":1}' });
      // A GET after a POST announces no body: the server would wait for one never sent.
      expect(seen.filter((r) => r.method === 'GET').map((r) => r.body)).to.satisfy((bodies: string[]) => bodies.every((b) => b === ''));
      expect(new Set(seen.map((r) => `${r.method} ${r.url}`))).to.deep.equal(new Set(['GET /missing', 'POST /a/_search']));
      // Both requests of the sequence, in turn; two node requests make one API request's worth.
      const posts = seen.filter((r) => r.method === 'POST').length;
      expect(Math.abs(posts - (seen.length - posts))).to.be.at.most(2);
      const elapsed = run.requests / 2 / run.rps;
      expect(elapsed).to.be.within(0.4, 3);
      // A 404 is an answer (an absent writer lock), not a refusal.
      expect(run.refused).to.equal(0);
    } finally {
      server.close();
    }
  });
});
