/**
 * The service's logger (src/service.ts createLogger) writes standard output in blocks: a line must
 * still leave the process when it exits, and within about a second when the process stays up and
 * quiet; the lines keep their fields and never carry a key.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';

/** Runs `code` (ESM, with createLogger imported) in a child; its stdout at exit, or once it holds `until` (then killed). */
function child(code: string, until?: string): Promise<string> {
  const script = `import { createLogger } from './src/service.ts';\nimport { writeSync } from 'node:fs';\n${code}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve) => {
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (until && out.includes(until)) proc.kill('SIGKILL');
    });
    proc.once('exit', () => resolve(out));
  });
}

describe('service logger', function () {
  this.timeout(30_000);

  it('writes a buffered line when the process exits', async () => {
    const out = await child(`const log = createLogger('info');
      log.info({ req_id: 'r1', method: 'GET', path: '/api/v1/annonces', status: 200, ms: 0.4, account: 'acme', key: 'ak_1234' }, 'request');
      process.exit(0);`);
    const line = JSON.parse(out.trim());
    expect(line).to.include({ level: 30, msg: 'request', req_id: 'r1', method: 'GET', path: '/api/v1/annonces', status: 200, account: 'acme', key: 'ak_1234' });
  });

  it('writes a line of a quiet process that stays up within the flush period', async () => {
    // TICK is written straight to the descriptor three seconds later; the child is killed when it
    // shows (no exit, so no flush at exit): the line must have left before it.
    const out = await child(
      `const log = createLogger('info');
      log.info({ req_id: 'r2', req: { headers: { 'x-api-key': 'secret-key' } } }, 'request');
      setTimeout(() => writeSync(1, 'TICK\\n'), 3000);
      setTimeout(() => {}, 60_000);`,
      'TICK',
    );
    expect(out.indexOf('"req_id":"r2"')).to.be.within(0, out.indexOf('TICK'));
    expect(out).to.not.include('secret-key');
  });
});
