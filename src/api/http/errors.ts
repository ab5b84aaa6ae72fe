/**
 * API errors with the docs/api.md body: `{ error, code, details?, retry_after_seconds? }` plus extra
 * fields for 402 bodies. Thrown anywhere in a request, rendered by the error middleware.
 */
export interface FieldIssue {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): Record<string, unknown> {
    return this.code === null ? { error: this.message, ...this.extra } : { error: this.message, code: this.code, ...this.extra };
  }
}

export const badRequest = (details: FieldIssue[], message?: string): ApiError =>
  new ApiError(400, 'BAD_REQUEST', message ?? `Invalid parameter${details.length > 1 ? 's' : ''}: ${details.map((d) => d.field).join(', ')}`, { details });

export const unprocessable = (details: FieldIssue[]): ApiError =>
  new ApiError(422, 'UNPROCESSABLE', `Nothing to compute with these values: ${details.map((d) => d.message).join('; ')}`, { details });

export const notFound = (message = 'Resource not found'): ApiError => new ApiError(404, 'NOT_FOUND', message);

export const serviceUnavailable = (what: string): ApiError =>
  new ApiError(503, 'SERVICE_UNAVAILABLE', `The ${what} is temporarily unavailable; retry in a few seconds.`, {}, { 'Retry-After': '5' });
