/**
 * What a running store re-reads now and then from its file instead of on every request: whether the
 * precomputed texts are current and which indexes exist. Another process (the indexer's reindex or
 * a first load's bulk mode) may change both while the API reads the file.
 */
import { PUBLIC_JSON_VERSION } from '../../../core/model/present.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';
import { PUBLIC_JSON_META } from '../schema/tables.js';

/** How often a running API re-reads whether the precomputed texts are current (a reindex may have just written them). */
export const STATE_CHECK_MS = 10_000;

export class StoreState {
  private publicJson: { current: boolean; at: number } | null = null;
  private readonly indexes = new Map<string, { present: boolean; at: number }>();

  constructor(private readonly statements: StatementCache) {}

  /** Whether the store has this index (schemaForOpen leaves out those an older store lacks); re-read every STATE_CHECK_MS. */
  hasIndex(name: string): boolean {
    const now = Date.now();
    const known = this.indexes.get(name);
    if (known && now - known.at <= STATE_CHECK_MS) return known.present;
    const present = this.statements.get("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
    this.indexes.set(name, { present, at: now });
    return present;
  }

  /** Indexes were dropped or built: look again at the next hasIndex. */
  forgetIndexes(): void {
    this.indexes.clear();
  }

  /** Whether the rows' `public_json` texts were written by the current presenter (schema/tables.ts PUBLIC_JSON_META). */
  publicJsonCurrent(): boolean {
    const now = Date.now();
    if (!this.publicJson || now - this.publicJson.at > STATE_CHECK_MS) {
      const row = this.statements.get('SELECT value FROM meta WHERE key = ?').get(PUBLIC_JSON_META) as { value: string } | undefined;
      this.publicJson = { current: row?.value === String(PUBLIC_JSON_VERSION), at: now };
    }
    return this.publicJson.current;
  }

  /** The texts were rewritten: read their version again at the next publicJsonCurrent. */
  forgetPublicJson(): void {
    this.publicJson = null;
  }
}
