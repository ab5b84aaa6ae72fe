/**
 * Document sets of full-text expressions, in memory, for the index-first plan (text/plan.ts).
 *
 * Index first walks a sort index and checks each row against the words. Asked of FTS5, that check is
 * a doclist lookup per row, and a department with a common word needs many of them per page. Here the
 * documents of the expression are read once into a bit set by rowid, and the check is a call of the
 * SQL function `text_set_has(expression, rowid)`, far cheaper than a lookup.
 *
 * Exact, never stale: a set serves only while the store is as it was when the set was read
 * (state/stamp.ts); any write drops every set.
 */
import type Database from 'better-sqlite3';
import { storeStamp } from '../state/stamp.js';

/** Sets kept at once (least recently used dropped): 125 KB each for a million listings, 16 MB for 128. */
const MAX_SETS = 128;
/** A set is read again at most this often (reading every document of a common word is not cheap). */
const REREAD_MIN_MS = 1_000;
/**
 * Sets of at most this many rows also keep their rowids in order (4 bytes each: 200 KB at most), so
 * that an intersection walks the smaller set's rows instead of a whole bit set.
 */
const MAX_LISTED_ROWS = 50_000;

/** The rows of a set: a bit by rowid, and the rowids in order when there are few enough. */
interface RowSet {
  bits: Uint8Array;
  rowids: Uint32Array | null;
}

export class TextSetCache {
  private readonly sets = new Map<string, RowSet>();
  /** When each expression's set was last read (kept across store changes). */
  private readonly readAt = new Map<string, number>();
  private stamp = '';
  private readonly readStamp: () => string;
  private readonly documentsStatement: Database.Statement;

  constructor(db: Database.Database) {
    this.readStamp = storeStamp(db);
    this.documentsStatement = db.prepare('SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?').pluck();
    // Not deterministic: the answer depends on the sets, which change between statements.
    db.function('text_set_has', { deterministic: false, directOnly: true }, (expression: unknown, rowid: unknown) => {
      const set = this.sets.get(String(expression));
      if (!set) throw new Error('text_set_has: no document set for this expression (call TextSetCache.prepare first)');
      return hasRow(set.bits, Number(rowid));
    });
  }

  /**
   * Makes the set of `expression` (an FTS5 MATCH expression) current, reading it if needed, and says
   * whether the statement may use `text_set_has(expression, l.rowid)` (run it right after, in the
   * same tick). False when the set was already read less than REREAD_MIN_MS ago and the store has
   * changed since: during a load (a commit every second or so) a very common word is read at most
   * once a second, and the searches in between check their rows in FTS5.
   */
  prepare(expression: string, now = Date.now()): boolean {
    return this.prepareRows(expression, () => this.documentsStatement.all(expression) as number[], now);
  }

  /**
   * The same for any set of rows: `key` names it for `text_set_has(key, rowid)` (it must not look
   * like an FTS5 expression), `readRowids` reads its rowids when it must be read.
   */
  prepareRows(key: string, readRowids: () => number[], now = Date.now()): boolean {
    const stamp = this.readStamp();
    if (stamp !== this.stamp) {
      this.sets.clear();
      this.stamp = stamp;
    }
    const cached = this.sets.get(key);
    if (cached) {
      // Most recently used last.
      this.sets.delete(key);
      this.sets.set(key, cached);
      return true;
    }
    if (now - (this.readAt.get(key) ?? -Infinity) < REREAD_MIN_MS) return false;
    if (this.readAt.size >= 4 * MAX_SETS) this.readAt.clear();
    this.readAt.set(key, now);
    const rowids = readRowids();
    let maxRowid = 0;
    for (const id of rowids) if (id > maxRowid) maxRowid = id;
    const bits = new Uint8Array((maxRowid >>> 3) + 1);
    for (const id of rowids) bits[id >>> 3] |= 1 << (id & 7);
    const listed = rowids.length <= MAX_LISTED_ROWS && maxRowid <= 0xffffffff ? Uint32Array.from(rowids).sort() : null;
    if (this.sets.size >= MAX_SETS) this.sets.delete(this.sets.keys().next().value!);
    this.sets.set(key, { bits, rowids: listed });
    return true;
  }

  /**
   * The rowids, in order, that are in both sets (each made current by `prepare`/`prepareRows` in the
   * same tick), read from the rowid list of one of them and the bits of the other; null when neither
   * keeps its rowids (both too big: the caller checks rows one by one instead).
   */
  intersection(firstKey: string, secondKey: string): number[] | null {
    const first = this.sets.get(firstKey);
    const second = this.sets.get(secondKey);
    if (!first || !second) throw new Error('TextSetCache.intersection: a set is not current (prepare it first)');
    const [listed, other] = second.rowids && (!first.rowids || second.rowids.length < first.rowids.length) ? [second, first] : [first, second];
    if (!listed.rowids) return null;
    const both: number[] = [];
    for (const id of listed.rowids) if (hasRow(other.bits, id)) both.push(id);
    return both;
  }
}

function hasRow(bits: Uint8Array, rowid: number): 0 | 1 {
  return (((bits[rowid >>> 3] ?? 0) >>> (rowid & 7)) & 1) as 0 | 1;
}
