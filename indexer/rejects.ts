/**
 * The rejects of one load: the file (one NDJSON line per refused record, with its file, line number
 * and reason, and the record, redacted), written anew by each load, and in the report each reason
 * with its count and a few references, with or without the file.
 */
import { createWriteStream, existsSync, mkdirSync, statSync, writeFileSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { redactedRecord } from './reject-record.js';

export interface Reject {
  file: string;
  line: number;
  reason: string;
  field?: string;
  record?: string;
}

/** Where one refused record was: its input and line, and the listing it names when its JSON says. */
export interface RejectReference {
  file: string;
  line: number;
  /** `<source>/<reference>`, when the line is JSON giving both. */
  listing?: string;
}

export interface RejectedReason {
  count: number;
  /** The first few records refused for it. */
  examples: RejectReference[];
}

/** References kept per reason, and distinct reasons listed (the others are counted under OTHER_REASONS). */
const EXAMPLES_PER_REASON = 3;
const REASONS_LISTED = 20;
export const OTHER_REASONS = 'other reasons';

export class RejectsWriter {
  private stream: WriteStream | null = null;
  private readonly reasons = new Map<string, RejectedReason>();
  count = 0;

  constructor(private readonly path: string | null) {}

  async write(reject: Reject): Promise<void> {
    this.count++;
    this.note(reject);
    if (!this.path) return;
    // A load's rejects alone: an older load's file at this path is replaced, never appended to.
    this.stream ??= createWriteStream(this.path, { flags: 'w' });
    // Contact data never leaves the store in clear, not even in the rejects (reject-record.ts).
    const line = `${JSON.stringify({ ...reject, record: reject.record === undefined ? undefined : redactedRecord(reject.record) })}\n`;
    if (!this.stream.write(line)) await once(this.stream, 'drain');
  }

  /** Each reason with its count and first references, in the order they were met. */
  summary(): Record<string, RejectedReason> {
    return Object.fromEntries(this.reasons);
  }

  async close(): Promise<void> {
    if (!this.stream) {
      // Nothing refused: the file says so, rather than keeping an older load's rejects.
      if (this.path) writeFileSync(this.path, '');
      return;
    }
    const stream = this.stream;
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  private note(reject: Reject): void {
    const key = this.reasons.has(reject.reason) || this.reasons.size < REASONS_LISTED ? reject.reason : OTHER_REASONS;
    let entry = this.reasons.get(key);
    if (!entry) this.reasons.set(key, (entry = { count: 0, examples: [] }));
    entry.count++;
    if (entry.examples.length < EXAMPLES_PER_REASON) entry.examples.push(referenceOf(reject));
  }
}

function referenceOf(reject: Reject): RejectReference {
  const reference: RejectReference = { file: reject.file, line: reject.line };
  if (reject.record === undefined) return reference;
  try {
    const record = JSON.parse(reject.record) as { source?: unknown; reference?: unknown };
    const named = (value: unknown) => (typeof value === 'string' && value !== '') || typeof value === 'number';
    if (named(record?.source) && named(record?.reference)) reference.listing = `${record.source}/${record.reference}`;
  } catch {
    // Not JSON: its file and line are the reference.
  }
  return reference;
}

/**
 * The file `--rejects` names for a load: in a directory, one file per load named by its start
 * (`rejects-20261127T021500.000Z.ndjson`; the directory is created), so every night's rejects are
 * kept; otherwise the path itself, which each load writes anew.
 */
export function rejectsFileFor(option: string, startedAt: Date): string {
  const isDirectory = option.endsWith('/') || option.endsWith(path.sep) || (existsSync(option) && statSync(option).isDirectory());
  if (!isDirectory) return option;
  mkdirSync(option, { recursive: true });
  return path.join(option, `rejects-${startedAt.toISOString().replace(/[-:]/g, '')}.ndjson`);
}
