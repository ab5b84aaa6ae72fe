/**
 * One attempt at delivering an event: a signed POST that the receiver acknowledges with a 2xx
 * within the timeout. Redirects are not followed (a 3xx is not an acknowledgement), and the
 * receiver's answer body is not kept: a short one is read to its end so that the connection serves
 * the next event, a long one closes the connection.
 *
 * Plain node:http(s) with keep-alive agents rather than fetch: each delivery is one small POST, and
 * fetch's request and response objects were a twelfth of the notifier's CPU (profiled). An idle
 * connection is dropped before the receiver's announced keep-alive timeout (node:http reads the
 * `Keep-Alive` header); if a reused connection is found closed all the same before any answer, the
 * event is sent once more on a new one (the receiver drops a repeat by its id).
 */
import http from 'node:http';
import https from 'node:https';
import { SIGNATURE_HEADER, signatureHeader } from '../core/alerts/signature.js';

export const DELIVERY_TIMEOUT_MS = 10_000;

/** Answer bodies longer than this are not read: the connection is closed instead. */
const DRAINED_BODY_BYTES = 64 * 1024;

const AGENTS = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
} as const;

/** The HTTP status of the answer, or null when none came in time (timeout, refused connection...). */
export async function postEvent(url: string, body: string, secret: string, now: number, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<number | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  const payload = Buffer.from(body, 'utf8');
  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': String(payload.length),
    'User-Agent': 'annonces-api-notifier/1',
    [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(now / 1000)),
  };
  const deadline = Date.now() + timeoutMs;
  const first = await attempt(target, headers, payload, timeoutMs);
  if (first !== 'stale') return first;
  const left = deadline - Date.now();
  if (left <= 0) return null;
  const second = await attempt(target, headers, payload, left);
  return second === 'stale' ? null : second;
}

/** One request; 'stale' when a reused keep-alive connection failed before any answer. */
function attempt(target: URL, headers: Record<string, string>, payload: Buffer, timeoutMs: number): Promise<number | null | 'stale'> {
  return new Promise((resolve) => {
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(target, { method: 'POST', headers, agent: AGENTS[target.protocol as 'http:' | 'https:'] });
    let answered = false;
    const timer = setTimeout(() => {
      request.destroy();
      if (!answered) resolve(null);
    }, timeoutMs);
    request.on('response', (response) => {
      answered = true;
      resolve(response.statusCode ?? null);
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > DRAINED_BODY_BYTES) request.destroy();
      });
      response.on('end', () => clearTimeout(timer));
      response.on('error', () => clearTimeout(timer));
    });
    request.on('error', () => {
      clearTimeout(timer);
      if (!answered) resolve(request.reusedSocket ? 'stale' : null);
    });
    request.end(payload);
  });
}
