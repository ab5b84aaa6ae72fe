/**
 * A first build (bulk mode, write/bulk-load.ts) writes with `synchronous = OFF`: SQLite never waits for the
 * disk, not even at its checkpoints, which shortens a first build (docs/benchmarks-history.md). A process
 * that dies loses nothing by it: its writes are in the OS's page cache, and the next open finishes the
 * build as before (recoverBulkLoad). A MACHINE that stops (power, kernel) before the OS wrote them can
 * leave the file in any state, the bulk flag inside it included, so the build is marked OUTSIDE the
 * file: `<store>.unsynced-build` holds the boot id of the machine that wrote it, written and synced
 * before the first unsynced write, and removed only once the store file and its WAL are synced.
 *
 * On open, a marker of another boot means the machine restarted while the build had unsynced writes:
 * the store refuses to open and says so (delete the store and load again). A marker of this boot is a
 * build still running (its process is alive: the build finishes itself, nobody else touches it) or a
 * process that died (its writes are in the page cache: recovered, synced, the marker removed).
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processStart } from '../../../core/ports/writer-lock.js';

const BOOT_ID_FILE = '/proc/sys/kernel/random/boot_id';

/** This boot of the machine (Linux); null where the OS does not say, and builds then sync as usual. */
export function currentBootId(): string | null {
  try {
    return readFileSync(BOOT_ID_FILE, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export const unsyncedBuildMarker = (storeFile: string): string => `${storeFile}.unsynced-build`;

/** The stores this process is building now (its own marker names a live process: this one). */
const buildingHere = new Set<string>();

/**
 * `pid_start`: when the process with that pid started (processStart), so that another process that
 * was given the same pid later (pids are reused) is not taken for the build: a rerun that took it
 * for a live build left the store without its full-text and map indexes. Absent in older markers.
 */
interface Marker {
  boot_id: string;
  pid: number;
  pid_start?: number;
  started_at: string;
}

/** Refusal to open a store whose unsynced first build a restart of the machine interrupted. */
export class UnsyncedBuildInterruptedError extends Error {
  constructor(storeFile: string, startedAt: string) {
    super(
      `listings store ${storeFile}: its first build (started ${startedAt}) was writing without syncing to disk when the machine ` +
        `restarted, so the file may be damaged; delete ${storeFile} (with its -wal, -shm and .unsynced-build files) and load again`,
    );
    this.name = 'UnsyncedBuildInterruptedError';
  }
}

/**
 * Marks a build about to write without syncing, and says whether it may (false for a store in
 * memory, or where there is no boot id: the build then syncs as usual).
 */
export function beginUnsyncedBuild(storeFile: string, bootId = currentBootId()): boolean {
  if (bootId === null || storeFile === '' || storeFile === ':memory:') return false;
  const marker = unsyncedBuildMarker(storeFile);
  const written: Marker = { boot_id: bootId, pid: process.pid, pid_start: processStart(process.pid) ?? undefined, started_at: new Date().toISOString() };
  writeFileSync(marker, `${JSON.stringify(written)}\n`);
  syncPath(marker);
  syncPath(path.dirname(marker));
  buildingHere.add(path.resolve(storeFile));
  return true;
}

/** Syncs the store file and its WAL, then removes the marker: what was written is on disk. */
export function endUnsyncedBuild(storeFile: string): void {
  for (const file of [storeFile, `${storeFile}-wal`]) if (existsSync(file)) syncPath(file);
  rmSync(unsyncedBuildMarker(storeFile), { force: true });
  syncPath(path.dirname(storeFile));
  buildingHere.delete(path.resolve(storeFile));
}

/**
 * On open: throws UnsyncedBuildInterruptedError for a marker of another boot. Otherwise 'none' (no
 * marker), 'running' (its process is alive and building) or 'dead' (the caller recovers the store,
 * then ends the marker).
 */
export function checkUnsyncedBuild(storeFile: string, bootId = currentBootId()): 'none' | 'running' | 'dead' {
  const marker = unsyncedBuildMarker(storeFile);
  if (!existsSync(marker)) return 'none';
  const written = JSON.parse(readFileSync(marker, 'utf8')) as Marker;
  if (written.boot_id !== bootId) throw new UnsyncedBuildInterruptedError(storeFile, written.started_at);
  if (written.pid === process.pid) return buildingHere.has(path.resolve(storeFile)) ? 'running' : 'dead';
  if (!processAlive(written.pid)) return 'dead';
  // Alive, but is it the build's process, or another one given the same pid since?
  const start = written.pid_start === undefined ? null : processStart(written.pid);
  return start !== null && start !== written.pid_start ? 'dead' : 'running';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that pid: alive as far as we can tell.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** fsync of a file or a directory (a directory's entries: the marker's creation and removal). */
function syncPath(target: string): void {
  const fd = openSync(target, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
