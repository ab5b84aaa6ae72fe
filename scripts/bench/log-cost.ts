/**
 * What the default log level costs: the same requests against the server as `npm start` runs it
 * (LOG_LEVEL unset: info, one line per request) and against a second server on the same data
 * directory with LOG_LEVEL=silent, alternated (alternate.ts). The figure is the requests/s lost at
 * info, in %.
 */
import { measureAlternated } from './alternate.js';
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
  try {
    const { a: info, b: quiet } = await measureAlternated({
      a: { server: spec.server, key: spec.key },
      b: { server: silent, key: spec.key },
      paths: spec.paths,
      connections: spec.connections,
      seconds: spec.seconds,
      warmupSeconds: spec.warmupSeconds,
    });
    const lostPercent = (100 * (quiet.rps - info.rps)) / quiet.rps;
    return { infoRps: info.rps, silentRps: quiet.rps, lostPercent, infoCpuMs: info.cpuMsPerRequest, silentCpuMs: quiet.cpuMsPerRequest };
  } finally {
    await silent.stop();
  }
}
