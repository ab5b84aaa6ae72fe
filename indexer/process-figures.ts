/**
 * What a load cost its process, read once the store is closed so that the last checkpoint counts:
 * the CPU time of all its threads (the parse worker and SQLite's sorter threads included), and the
 * bytes it sent to storage (Linux `/proc/self/io` `write_bytes`: WAL appends, checkpoints, temporary
 * sort files; null where the file does not exist). Printed with the load's report.
 */
import { readFileSync } from 'node:fs';

export interface ProcessFigures {
  cpu_seconds: number;
  disk_written_bytes: number | null;
}

export function processFigures(): ProcessFigures {
  const { user, system } = process.cpuUsage();
  return { cpu_seconds: Math.round((user + system) / 1e4) / 100, disk_written_bytes: bytesWritten() };
}

function bytesWritten(): number | null {
  try {
    const match = /^write_bytes:\s*(\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
