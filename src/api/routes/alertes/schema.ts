/**
 * /alertes (docs/api.md "Alerts"): the body of POST, the path parameters and the answers. The
 * filters are the `/annonces` filter parameters with the very schema /annonces validates them with,
 * so the same value gets the same message; their fields are named `filtres.<parameter>`.
 */
import { z } from 'zod';
import { ALERT_EVENTS } from '../../../core/ports/alert-store.js';
import { boundsInOrder, listingFilterParams } from '../shared/listing-filter.js';
import { integer } from '../shared/params.js';

export const AlertFilters = z.object(listingFilterParams).superRefine(boundsInOrder);
export type AlertFilters = z.infer<typeof AlertFilters>;

/** The names of the filters an alert accepts (anything else in `filtres` is refused). */
export const ALERT_FILTER_NAMES: ReadonlySet<string> = new Set(Object.keys(listingFilterParams));

/** The JSON body of POST /alertes, `filtres` checked apart with AlertFilters. */
export const AlertBody = z.object({
  filtres: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()])), z.null()]), {
      error: 'must be an object of /annonces parameters, each a string, a number or a list of them',
    })
    .optional()
    .describe('The /annonces filter parameters (q, type, ville, prix_max, sources...), as strings, numbers or lists.'),
  evenements: z
    .array(z.enum(ALERT_EVENTS, { error: `must be a list of ${ALERT_EVENTS.join(', ')}` }), { error: `must be a list of ${ALERT_EVENTS.join(', ')}` })
    .min(1, 'must name at least one event')
    .optional()
    .describe('The events to send; all three by default.'),
  url: z.string({ error: 'is required: the http(s) URL the events are POSTed to' }).max(2000, 'at most 2000 characters').describe('The receiver.'),
});
export type AlertBody = z.infer<typeof AlertBody>;

export const ALERT_BODY_FIELDS: ReadonlySet<string> = new Set(Object.keys(AlertBody.shape));

export const AlertIdParams = z.object({ id: z.string().regex(/^al_[0-9a-f]{32}$/, 'is not an alert id') });
export type AlertIdParams = z.infer<typeof AlertIdParams>;

export const DeliveriesParams = z.object({ limit: integer(1, 100).transform((v) => v ?? 50) });
export type DeliveriesParams = z.infer<typeof DeliveriesParams>;

const isoDate = z.string().describe('ISO 8601 date-time (UTC)');

export const AlertAnswer = z.object({
  id: z.string(),
  url: z.string(),
  filtres: z.record(z.string(), z.string()).describe('The filters as they were accepted, each as a string.'),
  evenements: z.array(z.enum(ALERT_EVENTS)),
  statut: z.enum(['active', 'en_pause']).describe('en_pause: deliveries failed for 3 days; delete the alert and create it again to resume.'),
  cree_le: isoDate,
  en_echec_depuis: isoDate.nullable().describe('Since when deliveries fail without a success in between.'),
  en_pause_depuis: isoDate.nullable(),
  livraisons_en_attente: z.number().int().min(0).describe('Events waiting for the receiver to acknowledge them.'),
});

export const AlertCreated = AlertAnswer.extend({
  secret: z.string().describe('The key of the X-Annonces-Signature HMAC. Shown once: keep it.'),
});

export const AlertList = z.object({ items: z.array(AlertAnswer), count: z.number().int().min(0), max: z.number().int().min(0) });

export const Delivery = z.object({
  evenement_id: z.string().describe('The event id (the `id` of the body sent).'),
  type: z.enum(ALERT_EVENTS),
  annonce_id: z.string().describe('source:reference of the listing.'),
  le: isoDate.describe('When the delivery ended: acknowledged, or given up.'),
  statut_http: z.number().int().nullable().describe('HTTP status of the last attempt; null for a timeout or a network error.'),
  tentatives: z.number().int().min(0),
  resultat: z.enum(['livree', 'echec']),
});

export const DeliveryList = z.object({ items: z.array(Delivery), count: z.number().int().min(0) });
