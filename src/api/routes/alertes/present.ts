/** The public shapes of an alert and of a delivery (schema.ts AlertAnswer, Delivery); the secret is added at creation only. */
import type { z } from 'zod';
import type { Alert, DeliveryRecord } from '../../../core/ports/alert-store.js';
import type { AlertAnswer, Delivery } from './schema.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function presentAlert(alert: Alert, pending: number): z.infer<typeof AlertAnswer> {
  return {
    id: alert.id,
    url: alert.url,
    filtres: alert.filtres,
    evenements: alert.evenements,
    statut: alert.paused_at === null ? 'active' : 'en_pause',
    cree_le: new Date(alert.created_at).toISOString(),
    en_echec_depuis: iso(alert.failing_since),
    en_pause_depuis: iso(alert.paused_at),
    livraisons_en_attente: pending,
  };
}

export function presentDelivery(record: DeliveryRecord): z.infer<typeof Delivery> {
  return {
    evenement_id: record.event_id,
    type: record.type,
    annonce_id: record.listing_id,
    le: new Date(record.at).toISOString(),
    statut_http: record.status,
    tentatives: record.attempts,
    resultat: record.outcome === 'delivered' ? 'livree' : 'echec',
  };
}
