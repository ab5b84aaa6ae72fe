/**
 * One delivery attempt (src/notifier/sender.ts) against real HTTP receivers: the status is what the
 * receiver answered, a redirect is not followed, no answer in time is null, a keep-alive connection
 * the receiver dropped is replaced by a new one, and a long answer body does not hold the attempt.
 */
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { postEvent } from '../../src/notifier/sender.js';

async function serve(handler: (request: IncomingMessage, response: ServerResponse, nthOnSocket: number) => void): Promise<{ url: string; server: Server }> {
  const perSocket = new WeakMap<Socket, number>();
  const server = createServer((request, response) => {
    const n = (perSocket.get(request.socket) ?? 0) + 1;
    perSocket.set(request.socket, n);
    request.resume();
    request.on('end', () => handler(request, response, n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('notifier: one delivery attempt', function () {
  this.timeout(10_000);
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(close));
  });
  const start = async (handler: Parameters<typeof serve>[0]) => {
    const { url, server } = await serve(handler);
    servers.push(server);
    return url;
  };

  it("returns the receiver's status, and does not follow a redirect", async () => {
    let calls = 0;
    const url = await start((request, response) => {
      calls += 1;
      if (request.url === '/hook') response.writeHead(302, { Location: '/elsewhere' }).end();
      else response.writeHead(204).end();
    });
    expect(await postEvent(url, '{"id":"e1"}', 'secret', Date.now())).to.equal(302);
    expect(calls).to.equal(1);
    expect(await postEvent(url.replace('/hook', '/ok'), '{"id":"e2"}', 'secret', Date.now())).to.equal(204);
  });

  it('returns null when no answer comes in time, or nobody listens', async () => {
    const url = await start(() => {});
    const started = Date.now();
    expect(await postEvent(url, '{"id":"e1"}', 'secret', Date.now(), 300)).to.equal(null);
    expect(Date.now() - started).to.be.within(250, 2_000);
    const refused = await start((_request, response) => response.end());
    await close(servers.pop()!);
    expect(await postEvent(refused, '{"id":"e1"}', 'secret', Date.now(), 300)).to.equal(null);
  });

  it('sends again on a new connection when the receiver dropped the kept-alive one', async () => {
    const bodies: number[] = [];
    // The second request on a connection finds it dropped, as when the receiver closes an idle connection just as it is reused.
    const url = await start((_request, response, nthOnSocket) => {
      bodies.push(nthOnSocket);
      if (nthOnSocket > 1) response.socket?.destroy();
      else response.writeHead(204).end();
    });
    expect(await postEvent(url, '{"id":"e1"}', 'secret', Date.now())).to.equal(204);
    expect(await postEvent(url, '{"id":"e2"}', 'secret', Date.now())).to.equal(204);
    expect(bodies).to.deep.equal([1, 2, 1]);
  });

  it('answers as soon as the status arrives, even with a long body, and keeps delivering', async () => {
    const url = await start((request, response) => {
      if (request.url !== '/hook') return void response.writeHead(200).end('ok');
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('x'.repeat(200_000));
      // The rest never comes: the attempt does not wait for it.
    });
    expect(await postEvent(url, '{"id":"e1"}', 'secret', Date.now(), 2_000)).to.equal(200);
    expect(await postEvent(url.replace('/hook', '/short'), '{"id":"e2"}', 'secret', Date.now(), 2_000)).to.equal(200);
  });
});
