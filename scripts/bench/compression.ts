/**
 * What response compression costs and saves: the requests of a few scenarios under the same load
 * with each Accept-Encoding the API negotiates (none, gzip, br), reporting bytes per response on the
 * wire and the server's CPU per request.
 */
import { processTreeCpuMs } from './child.js';
import { runLoad, waitUntilIdle } from './load.js';
import { integer, markdownTable, ms } from './report.js';

/** The scenarios whose answers are large enough to be compressed (detail is about 1 KiB). */
export const COMPRESSION_SCENARIOS = ['dept-page', 'search', 'feed', 'map-paris', 'detail'];

const ENCODINGS = ['identity', 'gzip', 'br'] as const;

export interface CompressionRow {
  scenario: string;
  encoding: string;
  bytes: number;
  cpuMsPerRequest: number | null;
  rps: number;
  p50: number;
}

export async function measureCompression(spec: {
  base: string;
  key: string;
  pid: number;
  connections: number;
  seconds: number;
  scenarios: { name: string; paths: readonly string[] }[];
}): Promise<CompressionRow[]> {
  const rows: CompressionRow[] = [];
  for (const scenario of spec.scenarios) {
    for (const encoding of ENCODINGS) {
      const cpuBefore = processTreeCpuMs(spec.pid);
      const run = await runLoad({
        base: spec.base,
        key: spec.key,
        paths: scenario.paths,
        connections: spec.connections,
        seconds: spec.seconds,
        headers: { 'accept-encoding': encoding },
      });
      const cpuAfter = processTreeCpuMs(spec.pid);
      await waitUntilIdle(spec.base);
      rows.push({
        scenario: scenario.name,
        encoding,
        bytes: run.bytesPerResponse,
        rps: run.rps,
        p50: run.p50,
        cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && run.requests > 0 ? (cpuAfter - cpuBefore) / run.requests : null,
      });
    }
  }
  return rows;
}

export function compressionTable(rows: CompressionRow[]): string {
  const plain = new Map(rows.filter((r) => r.encoding === 'identity').map((r) => [r.scenario, r]));
  return markdownTable(
    ['scenario', 'Accept-Encoding', 'bytes/response', 'vs none', 'CPU ms/req', 'req/s', 'p50 ms'],
    rows.map((r) => [
      r.scenario,
      r.encoding,
      integer(r.bytes),
      `${((100 * r.bytes) / (plain.get(r.scenario)?.bytes ?? r.bytes)).toFixed(0)} %`,
      ms(r.cpuMsPerRequest),
      integer(r.rps),
      ms(r.p50),
    ]),
  );
}
