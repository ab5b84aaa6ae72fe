/**
 * Plan choice for full text combined with filters (DESIGN.md Scale; measured in TOOLCHAIN.md).
 *
 * - text first: read every document of the rarest word from FTS5, filter, sort. Cost grows with the
 *   word's document frequency (df): about 0.6 µs per document.
 * - filter index first: walk the sort index and check each row against FTS5. Cost grows with the rows
 *   walked until a page is full, about pageSize * total / df rows, at about 100 µs per check.
 *
 * The two costs cross near df = sqrt(pageSize * total * 100 / 0.6); below it text first wins.
 */
export type TextPlan = 'text-first' | 'index-first';

const TEXT_FIRST_COST_PER_DOC = 0.6;   // µs
const INDEX_FIRST_COST_PER_ROW = 100;  // µs

export function chooseTextPlan(rarestWordDocs: number, totalDocs: number, rowsWanted: number): TextPlan {
  if (rarestWordDocs <= 0 || totalDocs <= 0) return 'text-first';
  const textFirst = rarestWordDocs * TEXT_FIRST_COST_PER_DOC;
  const indexFirst = rowsWanted * (totalDocs / rarestWordDocs) * INDEX_FIRST_COST_PER_ROW;
  return textFirst <= indexFirst ? 'text-first' : 'index-first';
}
