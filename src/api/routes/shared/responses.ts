/**
 * Response shapes shared by several routes (docs/api.md "Endpoints", "Error codes"). The handlers
 * write these shapes; the OpenAPI document is generated from them and tests check live answers
 * against it.
 */
import { z } from 'zod';
import { Annonce } from '../../../core/model/annonce.js';

export const FieldIssue = z.object({
  field: z.string().describe('The parameter at fault (`query` when the query string as a whole is).'),
  message: z.string(),
});

const isoDate = z.string().describe('ISO 8601 date-time (UTC)');

/** The next offer a monthly refusal proposes; `annonces_par_mois` is null for a negotiated volume. */
const NextTier = z.object({ offre: z.string(), annonces_par_mois: z.number().int().nullable() });

/**
 * Every error answer: `error` always; `code` except in the 404 of /ptz/zone; `details` on 400 and
 * 422; `retry_after_seconds` on 429; the 402 quota refusals add their counters and resumption date.
 */
export const ErrorBody = z.object({
  error: z.string().describe('Human-readable message.'),
  code: z
    .string()
    .optional()
    .describe(
      'Machine code: BAD_REQUEST, UNKNOWN_PARAMETER, API_KEY_MISSING, API_KEY_INVALID, QUOTA_EXCEEDED, ITEMS_QUOTA, PAID_PLAN_REQUIRED, NOT_FOUND, UNPROCESSABLE, RATE_LIMIT_PER_SEC, RATE_LIMIT_PER_MIN, RATE_LIMIT_PER_DAY, METHOD_NOT_ALLOWED, SERVICE_UNAVAILABLE, INTERNAL_ERROR; on /alertes also ALERT_LIMIT, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE.',
    ),
  details: z.array(FieldIssue).optional().describe('Every faulty field (400, 422).'),
  retry_after_seconds: z.number().int().min(1).optional().describe('Seconds to wait (429), as in Retry-After.'),
  quota: z.number().int().optional().describe('402 QUOTA_EXCEEDED / ITEMS_QUOTA: the quota reached.'),
  consomme: z.number().int().optional().describe('402: listings counted in the window.'),
  repart_le: isoDate.optional().describe('402 ITEMS_QUOTA on a subscription: start of the next billing period.'),
  se_libere_le: isoDate.optional().describe('402 QUOTA_EXCEEDED, or ITEMS_QUOTA on the rolling window: when the quota starts freeing up.'),
  palier_suivant: NextTier.nullable().optional().describe('402 ITEMS_QUOTA: the next offer, null at the top.'),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The envelope of the two flows (feed, withdrawn): `next_cursor` is null only in a 503. */
export function flowBatch<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item).describe('Site listings one by one, in write order (oldest first); empty when up to date.'),
    count: z.number().int().min(0).describe('Number of items.'),
    has_more: z.boolean().describe('True when more items are ready now; false when up to date (call again later with next_cursor).'),
    next_cursor: z
      .string()
      .max(500)
      .nullable()
      .describe('Always set on 200: keep it to resume, even when items is empty. Null only in the 503 answer (resume with the same cursor).'),
  });
}

/** The 503 of a flow: the error body with the envelope, `next_cursor` null (resume with the same cursor). */
export const FlowUnavailable = ErrorBody.extend({
  items: z.array(z.never()).max(0),
  count: z.literal(0),
  has_more: z.literal(false),
  next_cursor: z.null(),
});

export const FeedBatch = flowBatch(Annonce);
