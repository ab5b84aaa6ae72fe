/**
 * Which client errors mean "the cluster cannot serve right now" (the API answers 503, the feed gives
 * `next_cursor: null`, the bulk writer backs off and retries) and which are bugs (a 400 on a body we
 * built is ours to fix, so it stays a 500 that shows in the logs).
 *
 * Errors are recognised by name and status code rather than `instanceof`: the client is a dual
 * CJS/ESM package and a class seen through the other module system is a different class.
 */
import { StoreUnavailableError } from '../../core/ports/store-unavailable.js';

export const BACKEND = 'elasticsearch';

const UNREACHABLE = new Set(['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError', 'RequestAbortedError']);

export function statusOf(error: unknown): number | undefined {
  const meta = (error as { meta?: { statusCode?: number } } | null)?.meta;
  return typeof meta?.statusCode === 'number' ? meta.statusCode : undefined;
}

export function errorTypeOf(error: unknown): string | undefined {
  const body = (error as { meta?: { body?: { error?: { type?: string } } } } | null)?.meta?.body;
  return body?.error?.type;
}

/** Worth retrying later: the cluster is overloaded (429) or failing (5xx), or could not be reached. */
export function isTransient(error: unknown): boolean {
  const name = (error as Error | null)?.name ?? '';
  if (UNREACHABLE.has(name)) return true;
  const status = statusOf(error);
  return status !== undefined && (status === 429 || status >= 500);
}

/**
 * Unavailable for the API: transient, or the cluster refuses us as configured (bad credentials, the
 * alias does not exist yet). None of these is fixed by the caller changing its request.
 */
export function isUnavailable(error: unknown): boolean {
  if (isTransient(error)) return true;
  const status = statusOf(error);
  if (status === 401 || status === 403) return true;
  return status === 404 && errorTypeOf(error) === 'index_not_found_exception';
}

/** Runs one cluster call; an unavailable cluster becomes the port's StoreUnavailableError. */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    if (isUnavailable(error)) throw new StoreUnavailableError(BACKEND, error);
    throw error;
  }
}
