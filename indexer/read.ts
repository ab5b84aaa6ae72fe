/**
 * Streams NDJSON lines from files, plain or gzip (detected by the magic bytes, not the name), with
 * their line numbers. Constant memory whatever the file size: one line at a time.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

export interface InputLine { file: string; line: number; text: string }

/** Whether the file is gzip, by its magic bytes (what readLines goes by, whatever the name). */
export async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

export async function* readLines(files: readonly string[]): AsyncGenerator<InputLine> {
  for (const file of files) {
    let stream: Readable = createReadStream(file, { highWaterMark: 1 << 20 });
    if (await isGzip(file)) stream = stream.pipe(createGunzip());
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let line = 0;
    for await (const text of lines) {
      line++;
      if (text.trim() === '') continue;
      yield { file, line, text };
    }
  }
}

/** Total bytes of the inputs (for the progress bar). */
export async function totalBytes(files: readonly string[]): Promise<number> {
  let total = 0;
  for (const file of files) total += (await import('node:fs')).statSync(file).size;
  return total;
}
