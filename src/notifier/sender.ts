/**
 * One attempt at delivering an event: a signed POST that the receiver acknowledges with a 2xx
 * within the timeout. Redirects are not followed (a 3xx is not an acknowledgement), and the
 * receiver's answer body is not read beyond its status.
 */
import { SIGNATURE_HEADER, signatureHeader } from '../core/alerts/signature.js';

export const DELIVERY_TIMEOUT_MS = 10_000;

/** The HTTP status of the answer, or null when none came in time (timeout, refused connection...). */
export async function postEvent(url: string, body: string, secret: string, now: number, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<number | null> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'annonces-api-notifier/1',
        [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(now / 1000)),
      },
      body,
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return null;
  }
}
