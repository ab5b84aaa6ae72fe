/** Runs a command line of the project as an operator does (tsx, its own process) and returns what it printed and its exit status. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** SQLite in `dataDir` unless `env` names a cluster (ES_URL), without Redis. */
export async function cli(script: string, args: string[], dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(TSX, [script, ...args], { env: { ...process.env, DATA_DIR: dataDir, REDIS_URL: '', ES_URL: '', ...env } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}
