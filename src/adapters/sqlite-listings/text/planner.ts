/**
 * Chooses the full-text plan of a search (text/plan.ts) from what the store knows of the words: their
 * document frequencies and the number of documents (re-read at most once a DOC_FREQUENCY_TTL_MS), and
 * which document sets are current (text/document-sets.ts). Preparing a set here is what lets the statement
 * call text_set_has on it.
 */
import type { ListingFilter } from '../../../core/query/query.js';
import type { StatementCache } from '../../sqlite-shared/statements.js';
import { ftsMatchExpression } from '../read/filter-sql.js';
import { chooseTextPlan, type TextPlan } from './plan.js';
import type { TextSetCache } from './document-sets.js';
import { departmentSetKey, type TextChoice } from './choice.js';

const DOC_FREQUENCY_TTL_MS = 60_000;

export class TextPlanner {
  private readonly docFrequency = new Map<string, { docs: number; at: number }>();
  private totalDocs: { count: number; at: number } | null = null;

  /** `forced`: one plan whatever the words (the benchmarks); `useSets` false: FTS5 lookups instead of document sets. */
  constructor(
    private readonly statements: StatementCache,
    private readonly textSets: TextSetCache,
    private readonly forced: TextPlan | undefined,
    private readonly useSets: boolean,
  ) {}

  /** The plan of a search that wants `rowsWanted` rows; null without words. */
  choose(filter: ListingFilter, rowsWanted: number): TextChoice | null {
    const words = filter.words ?? [];
    if (words.length === 0) return null;
    const match = ftsMatchExpression(words);
    const rarest = Math.min(...words.map((w) => this.documentFrequency(w)));
    const plan =
      this.forced ??
      chooseTextPlan(rarest, this.totalDocuments(), Number.isFinite(rowsWanted) ? rowsWanted : this.totalDocuments(), this.useSets ? 'set' : 'fts');
    if (plan === 'text-first') {
      // With a department, only the documents of the department have their row read.
      const department = filter.department;
      if (department === undefined || !this.useSets) return { plan, departmentSet: null, intersection: null };
      const key = departmentSetKey(department);
      const rows = () => this.statements.get('SELECT rowid FROM listings WHERE vis >= 1 AND department = ?').pluck().all(department) as number[];
      if (!this.textSets.prepareRows(key, rows)) return { plan, departmentSet: null, intersection: null };
      // Both sets current: their intersection, computed here, replaces FTS5 (calling the set's SQL
      // function once per document of the word cost more than the whole intersection).
      const both = this.textSets.prepare(match) ? this.textSets.intersection(match, key) : null;
      return { plan, departmentSet: key, intersection: both };
    }
    // Each row the sort index yields is checked against the expression's document set (text/document-sets.ts),
    // or, without a usable set, by an FTS5 lookup.
    return { plan, check: this.useSets && this.textSets.prepare(match) ? 'set' : 'fts' };
  }

  private documentFrequency(word: string): number {
    const now = Date.now();
    const cached = this.docFrequency.get(word);
    if (cached && now - cached.at < DOC_FREQUENCY_TTL_MS) return cached.docs;
    const row = this.statements.get('SELECT doc FROM listings_fts_vocab WHERE term = ?').get(word) as { doc: number } | undefined;
    const docs = row?.doc ?? 0;
    if (this.docFrequency.size > 10_000) this.docFrequency.clear();
    this.docFrequency.set(word, { docs, at: now });
    return docs;
  }

  private totalDocuments(): number {
    const now = Date.now();
    if (!this.totalDocs || now - this.totalDocs.at > DOC_FREQUENCY_TTL_MS) {
      this.totalDocs = { count: (this.statements.get('SELECT max(rowid) AS n FROM listings').get() as { n: number | null }).n ?? 0, at: now };
    }
    return this.totalDocs.count;
  }
}
