/**
 * The full-text condition of a search in the plan the store chose (text/planner.ts), as SQL: a pure
 * function of the filter, the other conditions and that choice.
 */
import type { ListingFilter } from '../../../core/query/query.js';
import { ftsMatchExpression, type Param, type Sql, type SqlPart } from '../read/filter-sql.js';

/**
 * How a search reads full text (text/plan.ts):
 * - text first: FTS5 is the outer loop; `departmentSet` names the department's document set that
 *   each document is checked in before its row is read, and `intersection` (both sets current) is the
 *   rowids of the word's and the department's sets, read instead of FTS5.
 * - index first: the sort index drives, each row checked in the expression's document set (`set`)
 *   or by an FTS5 lookup (`fts`).
 */
export type TextChoice = { plan: 'text-first'; departmentSet: string | null; intersection: number[] | null } | { plan: 'index-first'; check: 'set' | 'fts' };

/** Renders a statement from its FROM clause and WHERE conditions. */
export type Render = (from: string, where: string) => string;

/** The statement of `render` with the full-text condition of `choice` added (none without words). */
export function withText(filter: ListingFilter, parts: SqlPart, choice: TextChoice | null, render: Render): Sql {
  const words = filter.words ?? [];
  if (words.length === 0) return { sql: render('listings l', parts.where.join(' AND ')), params: parts.params };
  if (choice === null) throw new Error('a search with words needs a full-text plan');
  const match = ftsMatchExpression(words);
  if (choice.plan === 'text-first') {
    if (choice.intersection !== null) {
      // Both sets current: their intersection is the outer loop, and FTS5 is not read at all.
      return {
        sql: render('json_each(?) j CROSS JOIN listings l ON l.rowid = j.value', parts.where.join(' AND ')),
        params: [JSON.stringify(choice.intersection), ...parts.params],
      };
    }
    // CROSS JOIN keeps FTS5 as the outer loop: SQLite's planner would otherwise walk the sort index.
    const where = ['listings_fts MATCH ?'];
    const params: Param[] = [match];
    if (choice.departmentSet !== null) {
      // A term on f.rowid alone, so SQLite tests it before reading the row.
      where.push('text_set_has(?, f.rowid)');
      params.push(choice.departmentSet);
    }
    return {
      sql: render('listings_fts f CROSS JOIN listings l ON l.rowid = f.rowid', [...where, ...parts.where].join(' AND ')),
      params: [...params, ...parts.params],
    };
  }
  const check = choice.check === 'set' ? 'text_set_has(?, l.rowid)' : 'EXISTS (SELECT 1 FROM listings_fts f WHERE listings_fts MATCH ? AND f.rowid = l.rowid)';
  return { sql: render('listings l', [...parts.where, check].join(' AND ')), params: [...parts.params, match] };
}

/** The key of a department's document set (TextSetCache.prepareRows). */
export const departmentSetKey = (department: string) => `department=${department}`;
