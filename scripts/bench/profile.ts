/**
 * `--profile`: the server child runs with `node --cpu-prof`; when it stops, its profile is summed
 * up here (time per function, self and inclusive), to say where a missed target's time goes.
 * The .cpuprofile files stay in the directory for Chrome DevTools / speedscope.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { markdownTable } from './report.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The main thread's profile among the files of the latest run. Node names them
 * CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile, the main thread being thread 0; tsx's loader
 * thread and the indexer's parse worker write their own, and the loader's, idle but as long as the
 * run, can be the biggest file (it was picked for a 1M indexer run). The biggest file stands in for
 * names without a thread id.
 */
export function latestProfile(dir: string): string | null {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f));
  if (files.length === 0) return null;
  const newest = Math.max(...files.map((f) => statSync(f).mtimeMs));
  const recent = files.filter((f) => newest - statSync(f).mtimeMs < 10_000);
  const main = recent.filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(path.basename(f)));
  return (main.length > 0 ? main : recent).sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

export function summariseProfile(file: string, top = 25, subject = 'the server'): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (n: ProfileNode) => {
    const where = n.callFrame.url
      ? ` ${n.callFrame.url.replace(/^.*\/(node_modules|work\/main)\//, '').replace(/^file:\/\//, '')}:${n.callFrame.lineNumber + 1}`
      : '';
    return `${n.callFrame.functionName || '(anonymous)'}${where}`;
  };
  const stacks = new Map<number, Set<string>>();
  const stackOf = (id: number): Set<string> => {
    let stack = stacks.get(id);
    if (!stack) {
      const up = parent.get(id);
      stack = new Set(up === undefined ? [] : stackOf(up));
      stack.add(label(byId.get(id)!));
      stacks.set(id, stack);
    }
    return stack;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') idle += dt;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    for (const name of stackOf(id)) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  });
  const busy = total - idle;
  const rows = (m: Map<string, number>) =>
    [...m]
      .filter(([name]) => !/^\((root|idle|program)\)/.test(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => [(us / 1000).toFixed(0), `${((100 * us) / busy).toFixed(1)} %`, name]);
  return [
    `CPU profile of ${subject} (${path.basename(file)}): ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} %)`,
    '',
    'Self time (the function itself; native SQLite time is counted in the JS function that called it):',
    '',
    markdownTable(['ms', 'of busy', 'function'], rows(self)),
    '',
    'Inclusive time (the function and everything it called):',
    '',
    markdownTable(['ms', 'of busy', 'function'], rows(inclusive)),
    '',
  ].join('\n');
}
