/**
 * The last map answers, by query, while the store is unchanged. A map front-end asks for the same
 * boxes again and again (the default view of a city, the tiles every visitor pans through), and a
 * 2 000-point answer costs the store's reads and about 700 KB of texts; a repeated one costs a lookup.
 *
 * Exact, never stale: every answer is dropped as soon as the store's stamp changes (state/stamp.ts),
 * checked on every lookup. The answers are bounded by count and by the bytes of their texts, the
 * least recently used dropped first. The texts are handed out as they are: the route only writes them.
 */
import type { MapResult } from '../../../core/ports/listing-reader.js';
import type { MapQuery } from '../../../core/query/query.js';

/** Answers kept at most, and the bytes of their texts: about 45 answers of 2 000 Paris points. */
export const MAP_ANSWERS = { entries: 256, bytes: 32 * 1024 * 1024 };

export class MapAnswers {
  private readonly answers = new Map<string, { result: MapResult; bytes: number }>();
  private bytes = 0;
  private stamp = '';

  constructor(
    private readonly readStamp: () => string,
    private readonly limits = MAP_ANSWERS,
  ) {}

  /** The answer to `query`, read by `read` unless the store is unchanged since an equal query was answered. */
  answer(query: MapQuery, read: () => MapResult): MapResult {
    if (this.limits.entries === 0) return read();
    const stamp = this.readStamp();
    if (stamp !== this.stamp) {
      this.answers.clear();
      this.bytes = 0;
      this.stamp = stamp;
    }
    const key = JSON.stringify(query);
    const kept = this.answers.get(key);
    if (kept) {
      // Most recently used last: the Map keeps insertion order.
      this.answers.delete(key);
      this.answers.set(key, kept);
      return kept.result;
    }
    // Read after the stamp: if another connection commits meanwhile, the next lookup sees a new stamp.
    const result = read();
    const bytes = result.texts.reduce((sum, text) => sum + text.length, 0);
    if (bytes > this.limits.bytes) return result;
    this.answers.set(key, { result, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.answers) {
      if (this.answers.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      this.answers.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return result;
  }
}
