/**
 * The indexer's exit statuses, one per thing an operator (or the cron job running the indexer) does
 * next: nothing, retry later, fix the input, fix the configuration, look at the failure.
 * docs/operations.md lists them.
 */

export const EXIT = {
  ok: 0,
  /** Anything else: the store unreachable, a bug. The message and the stack are printed. */
  failure: 1,
  /** A usage error: unknown command or option, a bad value. Nothing was changed. */
  usage: 2,
  /** Another writer holds the store (the writer lock, or SQLite's lock on the file): retry later. */
  busy: 3,
  /** The load ran to its end, but an input was damaged: ask the collector for the file again. */
  damagedInput: 4,
  /**
   * The configuration is wrong (a setting that does not parse, credentials the cluster refuses, an
   * Elasticsearch alias missing, an index too old for a snapshot load): fix it; a retry fails alike.
   */
  misconfigured: 5,
  /**
   * This writer lost its lock mid-run (it could not renew it for a lease, and another writer may have
   * taken over): it stopped before its next write. EX_TEMPFAIL of sysexits: run it again.
   */
  fenced: 75,
} as const;

/** SQLite's answers when another connection holds the file's lock past the busy timeout. */
const SQLITE_LOCKED_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED']);

/** The exit status of an error that ended a command, and what to print for it (null: the error itself, with its stack). */
export function exitOfError(error: unknown): { code: number; message: string | null } {
  const { name, message, code, issues, meta } = (error ?? {}) as {
    name?: string;
    message?: string;
    code?: unknown;
    issues?: { path: PropertyKey[]; message: string }[];
    meta?: { statusCode?: number };
  };
  if (name === 'WriterBusyError') return { code: EXIT.busy, message: `${message}\nretry later (exit ${EXIT.busy})` };
  if (name === 'WriterFencedError') return { code: EXIT.fenced, message: `${message}\nthis writer stopped; run it again (exit ${EXIT.fenced})` };
  if (typeof code === 'string' && SQLITE_LOCKED_CODES.has(code)) {
    return {
      code: EXIT.busy,
      message: `the SQLite store is locked by another writer (${code}: ${message}); retry later (exit ${EXIT.busy})`,
    };
  }
  const misconfigured = (problem: string) => ({
    code: EXIT.misconfigured,
    message: `${problem}\nfix the configuration; retrying will not help (exit ${EXIT.misconfigured})`,
  });
  if (name === 'MissingAliasError' || name === 'StoreBehindError') return misconfigured(message ?? name);
  // The settings (src/config/config.ts) did not parse: each one named, with what is wrong.
  if (name === 'ZodError' && Array.isArray(issues)) return misconfigured(issues.map((issue) => `setting ${issue.path.join('.')}: ${issue.message}`).join('\n'));
  // The cluster refused the credentials (ES_API_KEY, ES_USERNAME / ES_PASSWORD) or their rights.
  if (name === 'ResponseError' && (meta?.statusCode === 401 || meta?.statusCode === 403)) {
    return misconfigured(`Elasticsearch refused the credentials (HTTP ${meta.statusCode}): ${message}`);
  }
  return { code: EXIT.failure, message: null };
}
