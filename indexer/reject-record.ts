/**
 * What the rejects file keeps of a refused record: enough for the operator to find and fix it (its
 * fields, its values), never contact data. Contact fields are masked, and phones and e-mails in every
 * other text are redacted as the stored texts are (redact.ts); a line that is not JSON is redacted as
 * one text.
 */
import { redactContacts, REDACTION_MARKER } from './redact.js';

/** Keys of contact fields (seller_phone, seller_email, telephone, mail...), masked whatever their value. */
const CONTACT_KEY = /phone|^t[eé]l$|mail|contact/i;

/** Rejects keep this much of a record (the reason names the field; the rest is context). */
export const REJECT_RECORD_CHARS = 2000;

export function redactedRecord(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return redactContacts(text).slice(0, REJECT_RECORD_CHARS);
  }
  return JSON.stringify(redactValue(json)).slice(0, REJECT_RECORD_CHARS);
}

function redactValue(value: unknown, key = ''): unknown {
  if (CONTACT_KEY.test(key) && value !== null && value !== '') return REDACTION_MARKER;
  if (typeof value === 'string') return redactContacts(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, k)]));
  return value;
}
