/** A Node.js tool of the repository run as a child process (tsx loaded), its output collected. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface ToolRun {
  child: ChildProcess;
  done: Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts `node --import tsx <args>` with `env`; `done` settles when it exits, with its output. */
export function startTool(args: string[], env: NodeJS.ProcessEnv): ToolRun {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => {
    stdout += c;
  });
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  return { child, done: once(child, 'exit').then(([code]) => ({ code: code as number, stdout, stderr })) };
}
