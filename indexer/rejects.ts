/** The rejects file: one NDJSON line per refused record, with its file, line number and reason (and the record, redacted). */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { redactedRecord } from './reject-record.js';

export interface Reject {
  file: string;
  line: number;
  reason: string;
  field?: string;
  record?: string;
}

export class RejectsWriter {
  private stream: WriteStream | null = null;
  count = 0;

  constructor(private readonly path: string | null) {}

  async write(reject: Reject): Promise<void> {
    this.count++;
    if (!this.path) return;
    this.stream ??= createWriteStream(this.path, { flags: 'a' });
    // Contact data never leaves the store in clear, not even in the rejects (reject-record.ts).
    const line = `${JSON.stringify({ ...reject, record: reject.record === undefined ? undefined : redactedRecord(reject.record) })}\n`;
    if (!this.stream.write(line)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    if (!this.stream) return;
    const stream = this.stream;
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}
