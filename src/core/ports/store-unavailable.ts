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
