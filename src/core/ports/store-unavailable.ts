/** Raised by a backend that cannot be reached, through either listing port; the API answers 503 SERVICE_UNAVAILABLE. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly backend: string,
    cause?: unknown,
  ) {
    super(`${backend} is unavailable`);
    this.name = 'StoreUnavailableError';
    if (cause) (this as { cause?: unknown }).cause = cause;
  }
}

/**
 * The store refuses a costly read now rather than queue it behind others (deep pages on Elasticsearch:
 * every shard collects from + size hits). The API answers 503 at once with `Retry-After`, so a burst of
 * such reads never starves the cheap ones or waits out a timeout.
 */
export class StoreBusyError extends StoreUnavailableError {
  constructor(
    backend: string,
    readonly reason: string,
    readonly retryAfterSeconds: number,
  ) {
    super(backend);
    this.name = 'StoreBusyError';
    this.message = reason;
  }
}
