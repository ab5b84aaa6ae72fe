/**
 * What the default log level costs: the same requests against the server as `npm start` runs it
 * (LOG_LEVEL unset: info, one line per request) and against a second server on the same data
 * directory with LOG_LEVEL=silent, alternated (info, silent, silent, info) so that the machine's
 * other load weighs on both alike. The figure is the requests/s lost at info, in %.
 */
import { processTreeCpuMs } from './child.js';
import { runLoad, waitUntilIdle } from './load.js';
import { startServer, type RunningServer, type ServerOptions } from './server.js';

export interface LogCost {
  infoRps: number;
  silentRps: number;
  lostPercent: number;
  infoCpuMs: number | null;
  silentCpuMs: number | null;
}

export async function measureLogCost(spec: {
  server: RunningServer;
  dataDir: string;
  serverOptions: ServerOptions;
  key: string;
  paths: readonly string[];
  connections: number;
  seconds: number;
  /** Load given to the second server before the comparison: as much as the first one had (its warm-up and its own runs). */
  warmupSeconds: number;
}): Promise<LogCost> {
  const silent = await startServer(spec.dataDir, { ...spec.serverOptions, logLevel: 'silent' });
  const totals = { info: { requests: 0, seconds: 0, cpu: 0 }, silent: { requests: 0, seconds: 0, cpu: 0 } };
  let cpuKnown = true;
  try {
    // Warm the second server as much as the first one was: a colder one (its code less optimised)
    // made silent look slower than info.
    await runLoad({ base: silent.base, key: spec.key, paths: spec.paths, connections: spec.connections, seconds: spec.warmupSeconds });
    await waitUntilIdle(silent.base);
    for (const [level, server] of [
      ['info', spec.server],
      ['silent', silent],
      ['silent', silent],
      ['info', spec.server],
    ] as const) {
      const before = processTreeCpuMs(server.pid);
      const run = await runLoad({ base: server.base, key: spec.key, paths: spec.paths, connections: spec.connections, seconds: spec.seconds });
      const after = processTreeCpuMs(server.pid);
      await waitUntilIdle(server.base);
      totals[level].requests += run.requests;
      totals[level].seconds += run.requests / run.rps;
      if (before === null || after === null) cpuKnown = false;
      else totals[level].cpu += after - before;
    }
  } finally {
    await silent.stop();
  }
  const infoRps = totals.info.requests / totals.info.seconds;
  const silentRps = totals.silent.requests / totals.silent.seconds;
  const cpu = (t: { requests: number; cpu: number }) => (cpuKnown && t.requests > 0 ? t.cpu / t.requests : null);
  return { infoRps, silentRps, lostPercent: (100 * (silentRps - infoRps)) / silentRps, infoCpuMs: cpu(totals.info), silentCpuMs: cpu(totals.silent) };
}
