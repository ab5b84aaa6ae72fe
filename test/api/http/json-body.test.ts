/** Bodies spliced from precomputed JSON texts read exactly like JSON.stringify of the same object. */
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import Koa from 'koa';
import { JsonTexts, JsonTextValue, sendJson, serialiseBody } from '../../../src/api/http/json-body.js';

describe('serialiseBody', () => {
  it('writes fields in order, items from strings or UTF-8 bytes, like JSON.stringify', () => {
    const items = [{ x: 1, t: 'a "quoted" é' }, { y: null }];
    const body = {
      page: 1,
      items: new JsonTexts([JSON.stringify(items[0]), Buffer.from(JSON.stringify(items[1]))]),
      next_cursor: null,
      skipped: undefined,
      has_more: true,
    };
    expect(serialiseBody(body).toString('utf8')).to.equal(JSON.stringify({ page: 1, items, next_cursor: null, has_more: true }));
  });

  it('handles an empty list, a list first, and two lists', () => {
    expect(serialiseBody({ items: new JsonTexts([]), count: 0 }).toString()).to.equal('{"items":[],"count":0}');
    expect(serialiseBody({ a: new JsonTexts(['1']), b: new JsonTexts(['2', '3']) }).toString()).to.equal('{"a":[1],"b":[2,3]}');
    expect(serialiseBody({}).toString()).to.equal('{}');
  });

  it('writes a value that is one JSON text as it is, first, last or between others', () => {
    const annonce = { id: 'a', title: 'a "quoted" é' };
    expect(serialiseBody({ annonce: new JsonTextValue(JSON.stringify(annonce)) }).toString()).to.equal(JSON.stringify({ annonce }));
    const body = { a: 1, b: new JsonTextValue(Buffer.from(JSON.stringify(annonce))), c: new JsonTexts(['2']), d: new JsonTextValue('null') };
    expect(serialiseBody(body).toString()).to.equal(JSON.stringify({ a: 1, b: annonce, c: [2], d: null }));
  });
});

describe('sendJson', () => {
  /** Raw answer of a Koa app that sends `body` with sendJson (no client-side decoding). */
  async function answer(body: Record<string, unknown>): Promise<{ headers: Record<string, unknown>; bytes: Buffer }> {
    const app = new Koa();
    app.use((ctx) => sendJson(ctx, body));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      return await new Promise((resolve, reject) => {
        request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: '/' }, (res) => {
          const chunks: Buffer[] = [];
          res
            .on('data', (c: Buffer) => chunks.push(c))
            .on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }))
            .on('error', reject);
        })
          .on('error', reject)
          .end();
      });
    } finally {
      server.close();
    }
  }

  it('sends a map-sized body byte for byte, with its exact Content-Length, not chunked', async () => {
    const points = Array.from({ length: 5000 }, (_, i) => ({ id: `s:${i}`, lat: 48.8 + i / 1e5, lon: 2.3, prix: 100_000 + i }));
    const joined = Buffer.from(points.map((p) => JSON.stringify(p)).join(','));
    const body = { bbox: { south: 48.8, west: 2.2, north: 48.9, east: 2.4 }, total: 5000, capped: false, items: new JsonTexts([joined]) };
    const expected = JSON.stringify({ ...body, items: points });
    expect(expected.length).to.be.above(256 * 1024);
    const { headers, bytes } = await answer(body);
    expect(bytes.toString('utf8')).to.equal(expected);
    expect(headers['content-length']).to.equal(String(Buffer.byteLength(expected)));
    expect(headers['transfer-encoding']).to.equal(undefined);
    expect(headers['content-type']).to.equal('application/json; charset=utf-8');
  });

  it('sends a small body with its length', async () => {
    const { headers, bytes } = await answer({ page: 1, items: new JsonTexts(['{"a":1}']) });
    expect(bytes.toString()).to.equal('{"page":1,"items":[{"a":1}]}');
    expect(headers['content-length']).to.equal(String(bytes.length));
  });
});
