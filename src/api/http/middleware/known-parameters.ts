/**
 * docs/api.md "Unknown parameters": a query parameter a route does not take is a 400
 * UNKNOWN_PARAMETER naming it and the closest name the route takes, so a misspelt filter
 * (`prix_mni`) is not silently ignored and the answer widened. A client may always add the
 * parameters of ALWAYS_ALLOWED (a cache-buster).
 */
import { ApiError, type FieldIssue } from '../errors.js';

export const ALWAYS_ALLOWED: readonly string[] = ['_'];

/** The refusal of the query's unknown parameters, or null when every one is known. */
export function unknownParameters(query: Record<string, unknown>, known: readonly string[]): ApiError | null {
  // An empty name (`?&=`) carries nothing a client meant to send.
  const unknown = Object.keys(query).filter((name) => name !== '' && !known.includes(name) && !ALWAYS_ALLOWED.includes(name));
  if (!unknown.length) return null;
  const details: FieldIssue[] = unknown.slice(0, 20).map((name) => {
    const closest = closestName(name, known);
    return { field: name.slice(0, 64), message: closest ? `unknown parameter; did you mean ${closest}?` : 'unknown parameter' };
  });
  const named = details.map((d) => d.field).join(', ');
  return new ApiError(400, 'UNKNOWN_PARAMETER', `Unknown parameter${details.length > 1 ? 's' : ''}: ${named}`, { details });
}

/** The known name nearest to `name` in edits, when near enough to be a slip (at most a third of it). */
export function closestName(name: string, known: readonly string[]): string | null {
  const wanted = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== null && bestDistance <= Math.max(2, Math.ceil(best.length / 3)) ? best : null;
}

/** Levenshtein distance with adjacent transpositions counted as one edit (`prix_mni` -> `prix_min`). */
function editDistance(a: string, b: string): number {
  if (a.length > 64) return Number.POSITIVE_INFINITY;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
