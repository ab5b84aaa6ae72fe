/**
 * Feed replication as a mirror does it: ONE client follows next_cursor from the start of the
 * change feed to its end, page after page, over one keep-alive connection. The figure is listings
 * received per second; the cursors met on the way are kept for the raw store timing.
 */
import { Agent, request } from 'node:http';
import { percentile } from './stats.js';

export interface ReplicationRun {
  pages: number;
  listings: number;
  seconds: number;
  listingsPerSecond: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  firstBadStatus: number | null;
  /** A sample of the paths requested (page 1 and later cursors), for the raw timing. */
  samplePaths: string[];
}

export async function replicateFeed(base: string, key: string, firstPath: string, options: { maxPages?: number } = {}): Promise<ReplicationRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const samplePaths: string[] = [];
  let path = firstPath;
  let listings = 0;
  let non2xx = 0;
  let firstBadStatus: number | null = null;
  const started = process.hrtime.bigint();
  try {
    while (latencies.length < (options.maxPages ?? Infinity)) {
      const sent = process.hrtime.bigint();
      const answer = await getJson(agent, base + path, key);
      latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
      if (latencies.length % 97 === 1) samplePaths.push(path);
      if (answer.status !== 200) {
        non2xx++;
        firstBadStatus ??= answer.status;
        break;
      }
      listings += answer.body.count;
      if (!answer.body.has_more) break;
      path = `${firstPath}&cursor=${encodeURIComponent(answer.body.next_cursor)}`;
    }
  } finally {
    agent.destroy();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    pages: latencies.length,
    listings,
    seconds,
    listingsPerSecond: listings / seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx,
    firstBadStatus,
    samplePaths,
  };
}

function getJson(agent: Agent, url: string, key: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'x-api-key': key, accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
