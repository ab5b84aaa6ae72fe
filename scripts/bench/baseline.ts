/**
 * The bare-server baseline of a scenario, measured in the same run right after the API's figures:
 * the API's answers to the scenario's first requests are recorded (status, headers, body bytes, no
 * compression, as the load asks), a bare `node:http` child (bare-server.ts) serves exactly those
 * bytes, and the same load measures its one-connection p50 and its CPU per request. The API's
 * figures over these are its own overhead; these are the bound HTTP on this machine sets.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv, processTreeCpuMs, spawnTs } from './child.js';
import { runLoad } from './load.js';

/** Bodies kept for the bare server, all paths together (the map's answers are large). */
const RECORDED_BYTES = 32 * 1024 * 1024;
/** Headers the bare server's own `node:http` writes (or that describe the connection). */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding']);

export interface BareFigures {
  singleP50: number;
  cpuMsPerRequest: number | null;
  rps: number;
  /** p50 under the scenario's load (its connections): the queueing that HTTP alone causes on this machine. */
  p50: number;
  paths: number;
}

export async function measureBare(spec: {
  base: string;
  key: string;
  paths: readonly string[];
  connections: number;
  singleSeconds: number;
  seconds: number;
}): Promise<BareFigures> {
  const basePath = new URL(spec.base).pathname;
  const recorded: { path: string; status: number; headers: Record<string, string>; body: string }[] = [];
  let bytes = 0;
  for (const p of spec.paths) {
    if (recorded.length > 0 && bytes >= RECORDED_BYTES) break;
    const response = await fetch(spec.base + p, { headers: { 'x-api-key': spec.key, accept: 'application/json', 'accept-encoding': 'identity' } });
    const body = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name)) headers[name] = value;
    });
    recorded.push({ path: basePath + p, status: response.status, headers, body: body.toString('base64') });
    bytes += body.length;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'));
  const file = path.join(dir, 'responses.json');
  writeFileSync(file, JSON.stringify(recorded));
  const child = spawnTs('scripts/bench/bare-server.ts', [file], childEnv({}));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /port (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    });
    const bare = { base: `http://127.0.0.1:${port}${basePath}`, key: spec.key, paths: recorded.map((r) => r.path.slice(basePath.length)) };
    // Warm the bare server as the API was warmed (its JIT, its sockets).
    await runLoad({ ...bare, connections: spec.connections, seconds: Math.min(2, spec.seconds) });
    const single = await runLoad({ ...bare, connections: 1, seconds: spec.singleSeconds });
    const before = processTreeCpuMs(child.pid!);
    const run = await runLoad({ ...bare, connections: spec.connections, seconds: spec.seconds });
    const after = processTreeCpuMs(child.pid!);
    if (run.non2xx + single.non2xx > 0) throw new Error(`bare server answered ${run.firstBadStatus ?? single.firstBadStatus}`);
    return {
      singleP50: single.p50,
      rps: run.rps,
      p50: run.p50,
      paths: recorded.length,
      cpuMsPerRequest: before !== null && after !== null && run.requests > 0 ? (after - before) / run.requests : null,
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
