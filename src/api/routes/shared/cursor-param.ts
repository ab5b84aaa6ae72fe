import { CursorError, type CursorCodec } from '../../../core/query/cursor.js';
import type { SortPosition } from '../../../core/query/query.js';
import { badRequest } from '../../http/errors.js';

/** Highest page number a search cursor may carry (pages keep counting while cursors are followed). */
export const MAX_CURSOR_PAGE = 2 ** 31 - 1;

/**
 * Decodes a `cursor` parameter; a forged, corrupt or foreign cursor is a 400 naming `cursor`. So is
 * a correctly signed cursor whose position has another shape than this flow's (one signed by another
 * version or engine with the same secret): the stores bind its values as they are, and a position
 * of the wrong length was a 500.
 */
export function decodeCursorParam(cursors: CursorCodec, kind: string, cursor: string): SortPosition {
  let position: SortPosition;
  try {
    position = cursors.decode(kind, cursor);
  } catch (error) {
    if (error instanceof CursorError) throw refused(error.message);
    throw error;
  }
  const problem = kind.startsWith('search:') ? searchShapeProblem(position) : changeShapeProblem(position);
  if (problem !== null) throw refused(`malformed cursor: ${problem}`);
  return position;
}

function refused(reason: string) {
  return badRequest([{ field: 'cursor', message: `${reason}; use the next_cursor of the previous response` }]);
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Feed and withdrawn flow: (changed_at, change_seq). */
function changeShapeProblem(position: SortPosition): string | null {
  return position.length === 2 && position.every(isCount) ? null : 'a change position is two non-negative integers';
}

/** Search: (sort key, listing id, page number). */
function searchShapeProblem(position: SortPosition): string | null {
  if (position.length !== 3) return 'a search position is a sort key, an id and a page';
  const [key, id, page] = position;
  if (typeof key !== 'number' || !Number.isFinite(key)) return 'its sort key is not a number';
  if (typeof id !== 'string' || id === '') return 'its id is not a listing id';
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1 || page > MAX_CURSOR_PAGE)
    return `its page is not an integer from 1 to ${MAX_CURSOR_PAGE}`;
  return null;
}
