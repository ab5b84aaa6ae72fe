/**
 * Streams NDJSON lines from files, plain or gzip (detected by the magic bytes, not the name), with
 * their line numbers. Constant memory whatever the file size: one line at a time.
 *
 * Input that ends badly loses nothing that can be read: a truncated gzip stream, a corrupt one,
 * bytes after the last gzip member (which `gzip -d` ignores with a warning) or a last line without
 * its newline. Every line read before the damage is yielded, then one line carrying `damage` (its
 * reason) instead of a record; the load reports it and its exit code says the input was damaged.
 * Gzip members are read with a raw inflater and their headers and trailers by hand because Node's
 * gunzip discards the output of the chunk in which it meets trailing bytes (a short file lost every
 * record) and throws on a truncated stream.
 */
import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { constants, crc32, createInflateRaw } from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

export interface InputLine {
  file: string;
  line: number;
  text: string;
  /** The input is damaged here (why); `text` is empty. */
  damage?: string;
  /** The file's last line, without its newline: written whole, or cut. */
  unterminated?: boolean;
}

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
    const damage: string[] = [];
    const chunks = (await isGzip(file)) ? gunzipChunks(file, damage) : createReadStream(file, { highWaterMark: 1 << 20 });
    yield* splitLines(file, chunks, damage);
  }
}

async function* splitLines(file: string, chunks: AsyncIterable<Buffer> | Readable, damage: string[]): AsyncGenerator<InputLine> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const make = (raw: string): InputLine | null => {
    line++;
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A UTF-8 byte order mark (some editors and exports write one) is not part of the first record.
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text.trim() === '' ? null : { file, line, text };
  };
  try {
    for await (const chunk of chunks) {
      rest += decoder.write(chunk as Buffer);
      let start = 0;
      for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n', start)) {
        const input = make(rest.slice(start, end));
        start = end + 1;
        if (input) yield input;
      }
      rest = rest.slice(start);
    }
  } catch (error) {
    damage.push(`unreadable: ${(error as Error).message}`);
  }
  rest += decoder.end();
  if (rest !== '') {
    const input = make(rest);
    if (input) yield { ...input, unterminated: true };
  }
  for (const reason of damage) yield { file, line: line + 1, text: '', damage: reason };
}

/**
 * The decompressed bytes of every gzip member of the file, in order; what cannot be read is pushed
 * to `damage` (after everything before it has been yielded).
 */
async function* gunzipChunks(file: string, damage: string[]): AsyncGenerator<Buffer> {
  const size = (await stat(file)).size;
  const handle = await open(file, 'r');
  try {
    let offset = 0;
    for (let member = 1; offset < size; member++) {
      const header = await memberHeader(handle, offset, size);
      if (header === null) {
        const tail = await readAt(handle, offset, Math.min(size - offset, 1 << 16));
        // Zero bytes after the last member are padding (gzip accepts them silently).
        if (!tail.every((b) => b === 0) || size - offset > tail.length) damage.push(`${size - offset} byte(s) after the end of the gzip stream`);
        return;
      }
      if (typeof header === 'string') {
        damage.push(`gzip member ${member}: ${header}`);
        return;
      }
      const inflater = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
      const compressed = createReadStream(file, { start: header.dataStart, highWaterMark: 1 << 20 });
      compressed.pipe(inflater);
      let crc = 0;
      let length = 0;
      try {
        for await (const chunk of inflater) {
          crc = crc32(chunk as Buffer, crc);
          length += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      } catch (error) {
        damage.push(`gzip member ${member}: ${(error as Error).message}`);
        return;
      } finally {
        // The inflater stops at the end of its member; the rest of the file is the next member's.
        compressed.unpipe(inflater);
        compressed.destroy();
      }
      const dataEnd = header.dataStart + inflater.bytesWritten;
      // A stream that used every remaining byte never reached its end (finishFlush hands out what a
      // cut stream holds instead of throwing): the file was cut.
      if (dataEnd + 8 > size) {
        damage.push(`gzip member ${member}: the file ends before the end of the compressed stream (truncated)`);
        return;
      }
      const trailer = await readAt(handle, dataEnd, 8);
      if (trailer.readUInt32LE(0) !== crc >>> 0 || trailer.readUInt32LE(4) !== length % 2 ** 32) {
        damage.push(`gzip member ${member}: its checksum or length does not match its data`);
        return;
      }
      offset = dataEnd + 8;
    }
  } finally {
    await handle.close();
  }
}

/** The gzip header at `offset`: where its compressed data starts; null when no member starts there; a reason when it is cut or invalid. */
async function memberHeader(handle: FileHandle, offset: number, size: number): Promise<{ dataStart: number } | string | null> {
  const fixed = await readAt(handle, offset, 10);
  if (fixed.length < 2 || fixed[0] !== 0x1f || fixed[1] !== 0x8b) return null;
  if (fixed.length < 10) return 'the file ends inside a gzip header (truncated)';
  if (fixed[2] !== 8) return `unknown compression method ${fixed[2]}`;
  const flags = fixed[3];
  let at = offset + 10;
  if (flags & 4) {
    const extra = await readAt(handle, at, 2);
    if (extra.length < 2) return 'the file ends inside a gzip header (truncated)';
    at += 2 + extra.readUInt16LE(0);
  }
  for (const flag of [8, 16]) {
    if (!(flags & flag)) continue;
    // A zero-terminated name or comment.
    for (;;) {
      const part = await readAt(handle, at, 256);
      if (part.length === 0) return 'the file ends inside a gzip header (truncated)';
      const zero = part.indexOf(0);
      at += zero === -1 ? part.length : zero + 1;
      if (zero !== -1) break;
    }
  }
  if (flags & 2) at += 2;
  return at > size ? 'the file ends inside a gzip header (truncated)' : { dataStart: at };
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** Total bytes of the inputs (for the progress bar). */
export async function totalBytes(files: readonly string[]): Promise<number> {
  let total = 0;
  for (const file of files) total += (await import('node:fs')).statSync(file).size;
  return total;
}
