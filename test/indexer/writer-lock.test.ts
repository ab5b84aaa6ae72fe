/** The SQLite store's writer lock file: exclusive, and taken over from a holder that died. */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireSqliteWriterLock, writerLockFile } from '../../src/adapters/sqlite-listings/write/writer-lock.js';
import { currentIdentity, holderAlive, processStart, WriterBusyError } from '../../src/core/ports/writer-lock.js';

describe('SQLite writer lock', () => {
  const storeFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'lock-')), 'listings.sqlite');

  it('is exclusive while held and removed on release', async () => {
    const file = storeFile();
    const lock = acquireSqliteWriterLock(file);
    expect(existsSync(writerLockFile(file))).to.equal(true);
    expect(() => acquireSqliteWriterLock(file)).to.throw(WriterBusyError, /being written by another indexer/);
    await lock.release();
    expect(existsSync(writerLockFile(file))).to.equal(false);
  });

  it('takes over the lock of a process that died, and of a pid now used by another process', async () => {
    const file = storeFile();
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    writeFileSync(writerLockFile(file), JSON.stringify({ ...currentIdentity(), pid: child.pid }));
    await acquireSqliteWriterLock(file).release();
    // Our own pid, but a start time that is not ours: the pid was reused, its holder is gone.
    const reused = { ...currentIdentity(), process_start: (processStart(process.pid) ?? 0) + 1 };
    expect(holderAlive(reused)).to.equal(false);
    writeFileSync(writerLockFile(file), JSON.stringify(reused));
    await acquireSqliteWriterLock(file).release();
    // A lock file cut short by a crash names nobody.
    writeFileSync(writerLockFile(file), '{"host":');
    await acquireSqliteWriterLock(file).release();
  });
});
