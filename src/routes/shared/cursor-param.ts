import { CursorError, type CursorCodec } from '../../listings/cursor.js';
import type { SortPosition } from '../../listings/query.js';
import { badRequest } from '../../http/errors.js';

/** Decodes a `cursor` parameter; a forged, corrupt or foreign cursor is a 400 naming `cursor`. */
export function decodeCursorParam(cursors: CursorCodec, kind: string, cursor: string): SortPosition {
  try {
    return cursors.decode(kind, cursor);
  } catch (error) {
    if (error instanceof CursorError) throw badRequest([{ field: 'cursor', message: `${error.message}; use the next_cursor of the previous response` }]);
    throw error;
  }
}
