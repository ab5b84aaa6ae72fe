/**
 * Child processes of the benchmarks (indexer, server) and their peak memory. The peak is the
 * kernel's high-water mark of the resident set (VmHWM in /proc/<pid>/status), sampled every 200 ms:
 * VmHWM never goes down, so the last sample before exit is the peak of the whole run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The environment of a child: the parent's, without anything that would switch backends. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['ES_URL', 'REDIS_URL', 'PORT', 'DATA_DIR', 'CURSOR_SECRET', 'NODE_OPTIONS']) delete env[name];
  return { ...env, LOG_LEVEL: 'silent', ...extra };
}

/**
 * `node --import tsx <script> ...args` from the repository root, or from another checkout of it
 * (`cwd`, the code before a change: before-code.ts); no npm wrapper: the pid is node's.
 */
export function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv, nodeFlags: string[] = [], cwd = REPO_ROOT): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Peak RSS of a process in MiB, read from /proc (Linux). Null when /proc is not readable. */
export function readPeakRssMiB(pid: number): number | null {
  return readStatusMiB(pid, 'VmHWM');
}

/** A memory line of /proc/<pid>/status in MiB (`VmHWM`, `RssAnon`, ...); null when unreadable. */
export function readStatusMiB(pid: number, field: string): number | null {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export interface PeakRssWatch {
  readonly peakMiB: number | null;
  /**
   * Highest anonymous resident memory seen (`RssAnon`, sampled): the process's own heap and buffers.
   * The peak RSS also counts file pages the process maps (the API's memory-mapped store file), which
   * are the page cache rather than memory it holds.
   */
  readonly peakAnonMiB: number | null;
  stop(): number | null;
}

export function watchPeakRss(pid: number, everyMs = 200): PeakRssWatch {
  let peak: number | null = readPeakRssMiB(pid);
  let peakAnon: number | null = readStatusMiB(pid, 'RssAnon');
  const timer = setInterval(() => {
    const now = readPeakRssMiB(pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
    const anon = readStatusMiB(pid, 'RssAnon');
    if (anon !== null) peakAnon = Math.max(peakAnon ?? 0, anon);
  }, everyMs);
  timer.unref();
  return {
    get peakMiB() {
      return peak;
    },
    get peakAnonMiB() {
      return peakAnon;
    },
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  peakRssMiB: number | null;
}

/** Runs a TypeScript entry point to completion, passing its stderr through (progress lines). */
export async function runTs(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { echoStderr?: boolean; nodeFlags?: string[]; onSpawn?: (pid: number) => void; cwd?: string } = {},
): Promise<ChildRun> {
  const started = process.hrtime.bigint();
  const child = spawnTs(script, args, env, options.nodeFlags, options.cwd);
  const rss = watchPeakRss(child.pid!);
  options.onSpawn?.(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (options.echoStderr) process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve(exitCode));
  });
  return { code, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9, peakRssMiB: rss.stop() };
}

/**
 * CPU time (user + system, ms) used so far by a process and its descendants (cluster workers), read
 * from /proc/<pid>/stat. CPU per request is a figure that other work on the machine does not bend,
 * unlike requests/s; null when /proc is not readable.
 */
export function processTreeCpuMs(rootPid: number): number | null {
  const ticksPerSecond = 100; // USER_HZ: 100 on every Linux ABI Node supports
  const stats = new Map<number, { ppid: number; ticks: number }>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let text: string;
      try {
        text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // Fields after the command name (which may hold spaces) start after the last ')'.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    }
  } catch {
    return null;
  }
  if (!stats.has(rootPid)) return null;
  let ticks = 0;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) queue.push(child);
  }
  return (ticks * 1000) / ticksPerSecond;
}
