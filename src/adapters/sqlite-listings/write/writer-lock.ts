/**
 * The writer lock of a SQLite store (src/core/ports/writer-lock.ts): a file beside the store, created
 * exclusively, naming the holding process. A file left by a process that died is taken over.
 */
import { openSync, closeSync, writeSync, readFileSync, unlinkSync, fsyncSync } from 'node:fs';
import { currentIdentity, holderAlive, WriterBusyError, type WriterIdentity, type WriterLock } from '../../../core/ports/writer-lock.js';

export const writerLockFile = (storeFile: string): string => `${storeFile}.writer-lock`;

function readHolder(file: string): WriterIdentity | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as WriterIdentity;
  } catch {
    // Missing, or cut short by a crash while being written: no live holder wrote it whole.
    return null;
  }
}

export function acquireSqliteWriterLock(storeFile: string): WriterLock {
  const file = writerLockFile(storeFile);
  const holder = currentIdentity();
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const existing = readHolder(file);
      if (existing && holderAlive(existing, holder) !== false) throw new WriterBusyError(storeFile, existing);
      // Its holder is gone: remove the file and try again (another starter may win the race).
      try {
        unlinkSync(file);
      } catch {
        /* removed by that other starter */
      }
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(holder)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return {
      holder,
      async release() {
        const current = readHolder(file);
        if (current && current.pid === holder.pid && current.since === holder.since) unlinkSync(file);
      },
    };
  }
  throw new Error(`could not take the writer lock ${file}`);
}
