/**
 * The signature of an alert's calls (docs/api.md "Alerts"): `X-Annonces-Signature: t=<unix>,v1=<hex>`
 * where v1 is the HMAC-SHA256 of `<t>.<body>` with the alert's secret. The timestamp lets a receiver
 * refuse a replayed call; the secret never travels with the call.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Annonces-Signature';

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
