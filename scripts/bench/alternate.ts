/**
 * Two servers answering the same requests, measured alternately (a, b, b, a) so that the machine's
 * other load weighs on both alike: what the default log level costs (log-cost.ts), what the code
 * before a change did (before-code.ts). Each side's requests/s over its two runs and its process
 * tree's CPU per request.
 */
import { processTreeCpuMs } from './child.js';
import { runLoad, waitUntilIdle } from './load.js';
import type { RunningServer } from './server.js';

export interface Side {
  server: RunningServer;
  /** The API key the side's server knows. */
  key: string;
}

export interface SideFigures {
  rps: number;
  cpuMsPerRequest: number | null;
  /** Answers outside 2xx and socket failures. */
  errors: number;
}

export async function measureAlternated(spec: {
  a: Side;
  b: Side;
  paths: readonly string[];
  connections: number;
  seconds: number;
  /** Load given to side b first, as much as side a already had (a colder server's code is less optimised). */
  warmupSeconds: number;
}): Promise<{ a: SideFigures; b: SideFigures }> {
  const load = (side: Side, seconds: number) => runLoad({ base: side.server.base, key: side.key, paths: spec.paths, connections: spec.connections, seconds });
  await load(spec.b, spec.warmupSeconds);
  await waitUntilIdle(spec.b.server.base);
  const totals = new Map<Side, { requests: number; seconds: number; cpu: number; errors: number; cpuKnown: boolean }>();
  for (const side of [spec.a, spec.b]) totals.set(side, { requests: 0, seconds: 0, cpu: 0, errors: 0, cpuKnown: true });
  for (const side of [spec.a, spec.b, spec.b, spec.a]) {
    const before = processTreeCpuMs(side.server.pid);
    const run = await load(side, spec.seconds);
    const after = processTreeCpuMs(side.server.pid);
    await waitUntilIdle(side.server.base);
    const total = totals.get(side)!;
    total.requests += run.requests;
    total.seconds += run.requests / run.rps;
    total.errors += run.non2xx + run.failures;
    if (before === null || after === null) total.cpuKnown = false;
    else total.cpu += after - before;
  }
  const figures = (side: Side): SideFigures => {
    const t = totals.get(side)!;
    return { rps: t.requests / t.seconds, cpuMsPerRequest: t.cpuKnown && t.requests > 0 ? t.cpu / t.requests : null, errors: t.errors };
  };
  return { a: figures(spec.a), b: figures(spec.b) };
}
