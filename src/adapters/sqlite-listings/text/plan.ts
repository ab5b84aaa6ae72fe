/**
 * Plan choice for full text combined with filters (docs/architecture.md).
 *
 * - text first: read every document of the rarest word from FTS5, filter, sort. Cost grows with the
 *   word's document frequency (df), at TEXT_FIRST_COST_PER_DOC per document.
 * - filter index first: walk the sort index and check each row against FTS5. Cost grows with the rows
 *   walked until a page is full, about pageSize * total / df rows, at INDEX_FIRST_COST_PER_ROW each.
 *
 * The two costs cross near df = sqrt(pageSize * total * perRow / perDoc); below it text first wins.
 * The relative costs below are the model's settings, calibrated with npm run bench (text plans).
 */
export type TextPlan = 'text-first' | 'index-first';

/** How index first checks a row: an FTS5 lookup, or a bit of the expression's document set (text/document-sets.ts). */
export type RowCheck = 'fts' | 'set';

const TEXT_FIRST_COST_PER_DOC = 0.6;
/**
 * Per row walked, in the same unit. FTS5: a lookup. Set: a bit test, rounded up to leave room for
 * reading the set now and then.
 */
const INDEX_FIRST_COST_PER_ROW: Record<RowCheck, number> = { fts: 100, set: 1 };

export function chooseTextPlan(rarestWordDocs: number, totalDocs: number, rowsWanted: number, rowCheck: RowCheck = 'fts'): TextPlan {
  if (rarestWordDocs <= 0 || totalDocs <= 0) return 'text-first';
  const textFirst = rarestWordDocs * TEXT_FIRST_COST_PER_DOC;
  const indexFirst = rowsWanted * (totalDocs / rarestWordDocs) * INDEX_FIRST_COST_PER_ROW[rowCheck];
  return textFirst <= indexFirst ? 'text-first' : 'index-first';
}
