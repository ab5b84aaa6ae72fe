/**
 * Whether the access store ever held accounts, kept OUTSIDE Redis. Redis is a memory store: one that
 * restarts without persistence (or is flushed, or evicts keys) comes back empty and answers every
 * call, so without a witness the service would call itself healthy while refusing every key with a
 * 401. The witness is this process's memory and, when the service has a data directory, a small file
 * in it, so that a restarted API still knows.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export class AccountsWitness {
  private seenHere = false;

  /** `file`: where the witness is kept across restarts (null: this process only). */
  constructor(
    private readonly file: string | null,
    private readonly keyPrefix: string,
  ) {}

  /** The store holds accounts now. */
  saw(): void {
    if (this.seenHere) return;
    this.seenHere = true;
    if (this.file === null || this.prefixes().includes(this.keyPrefix)) return;
    try {
      writeFileSync(this.file, `${JSON.stringify({ prefixes: [...this.prefixes(), this.keyPrefix] })}\n`);
    } catch {
      // A read-only data directory: this process still remembers.
    }
  }

  /** Whether accounts were seen under this prefix, by this process or an earlier one. */
  seen(): boolean {
    return this.seenHere || this.prefixes().includes(this.keyPrefix);
  }

  private prefixes(): string[] {
    if (this.file === null || !existsSync(this.file)) return [];
    try {
      return (JSON.parse(readFileSync(this.file, 'utf8')) as { prefixes?: string[] }).prefixes ?? [];
    } catch {
      return [];
    }
  }
}
