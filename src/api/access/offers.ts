/** Offers of docs/api.md "Offers, quotas and headers" (configuration in src/config/offers.json). */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const OfferJson = z.object({
  id: z.string(),
  name: z.string(),
  /** null: legacy accounts, daily cap only (no X-Quota-Mois-* headers). */
  itemsPerMonth: z.number().int().positive().nullable(),
  itemsPerDay: z.number().int().positive().optional(),
  requestsPerDay: z.number().int().positive(),
  perMinute: z.number().int().positive(),
  perSecond: z.number().int().positive(),
  /** Free offer: monthly quota over a rolling 30-day window instead of a billing period. */
  rollingMonth: z.boolean(),
  siteFilters: z.boolean(),
  priceSeries: z.boolean(),
  /** GET /stats (market statistics of an area); false when absent. */
  marketStats: z.boolean().default(false),
  /** Alerts an account may hold (POST /alertes); 0: the offer has none (402). */
  maxAlerts: z.number().int().min(0).default(0),
  /** The offer the ITEMS_QUOTA body proposes (`palier_suivant`). */
  next: z.string().nullable(),
  /** Volumes agreed per contract (Sur mesure): `palier_suivant` shows no monthly volume for it. */
  negotiated: z.boolean().default(false),
});

export interface Offer extends z.infer<typeof OfferJson> {
  /** docs/api.md: a tenth of the monthly volume, at least 200 (unless the offer sets it). */
  itemsPerDay: number;
}

export class OfferCatalog {
  private readonly byId: Map<string, Offer>;
  constructor(readonly offers: readonly Offer[]) {
    this.byId = new Map(offers.map((o) => [o.id, o]));
  }
  get(id: string): Offer | undefined {
    return this.byId.get(id);
  }
  has(id: string): boolean {
    return this.byId.has(id);
  }
  get ids(): string[] {
    return this.offers.map((o) => o.id);
  }
}

const OFFERS_FILE = new URL('../../config/offers.json', import.meta.url);

export function loadOffers(file: URL | string = OFFERS_FILE): OfferCatalog {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { offers: unknown };
  const offers = z
    .array(OfferJson)
    .parse(raw.offers)
    .map((o) => ({
      ...o,
      itemsPerDay: o.itemsPerDay ?? Math.max(200, Math.floor((o.itemsPerMonth ?? 2000) / 10)),
    }));
  const ids = new Set(offers.map((o) => o.id));
  const dangling = offers.find((o) => o.next !== null && !ids.has(o.next));
  if (dangling) throw new Error(`offer ${dangling.id}: next offer ${dangling.next} is not configured`);
  return new OfferCatalog(offers);
}
