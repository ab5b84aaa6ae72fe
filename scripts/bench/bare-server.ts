/**
 * The floor under the API: a bare `node:http` server (no framework, no auth, no store, no log) that
 * answers each path with the status, headers and body bytes the API sent for it, recorded just
 * before. Run as a child process like the API, so its latency and CPU per request are measured the
 * same way: what is left between the API and this server is the API's own work.
 *
 * Usage (by baseline.ts): tsx scripts/bench/bare-server.ts <responses.json>; prints `port <n>` once
 * it listens. The file: [{ path, status, headers, body (base64) }].
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

interface Recorded {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Recorded[];
const answers = new Map(recorded.map((r) => [r.path, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]));

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`port ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
