/**
 * The raw record a collector writes, one JSON object per NDJSON line. Only the identity and the
 * collection time are required; everything else is optional and as messy as real collectors make
 * it (numbers with spaces and units, French type names, DPE in prose, dates in several formats).
 * Unknown keys are kept (passthrough) and ignored by normalisation, except contact fields, which
 * are dropped (privacy).
 */
import { z } from 'zod';

const looseText = z.union([z.string(), z.number()]).nullish();
const looseNumber = z.union([z.number(), z.string()]).nullish();
const looseBool = z.union([z.boolean(), z.string(), z.number()]).nullish();

export const RawRecord = z.looseObject({
  source: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'source must match ^[a-z0-9_-]{1,32}$'),
  // Printable ASCII without spaces, as listing sites write their references; it also keeps every
  // cursor (which carries the listing id) under the 500 characters of docs/api.md.
  reference: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(
      z
        .string()
        .min(1)
        .max(128)
        .regex(/^[\x21-\x7E]+$/, 'reference must be printable ASCII without spaces'),
    ),
  url: z.string().min(1).max(2048),
  collected_at: z.string().min(1),

  status: z.string().nullish(), // active | vendue | sous compromis | archivée | retirée ...
  title: looseText,
  description: looseText,
  type: looseText, // "appt", "T3", "studio", "maison de ville", "villa"...
  category: looseText, // the site's category: "Ventes immobilières > Appartement"
  transaction: looseText, // "vente", "location", "à louer", "achat"...
  price: looseNumber, // "350 000 €", "1 200 €/mois CC"
  surface: looseNumber, // "45,5 m²"
  land_surface: looseNumber,
  living_room_surface: looseNumber,
  rooms: looseNumber,
  bedrooms: looseNumber,
  bathrooms: looseNumber,
  shower_rooms: looseNumber,
  toilets: looseNumber,
  kitchen: looseText,
  year_built: looseNumber,
  elevator: looseBool,
  parking: looseBool,
  parking_interior: looseBool,
  parking_exterior: looseBool,
  cellar: looseBool,
  garden: looseBool,
  exclusive: looseBool,
  seller_type: looseText, // "pro", "agence", "particulier"...
  seller_name: looseText,
  seller_phone: looseText, // contact data: dropped, never stored
  seller_email: looseText, // contact data: dropped, never stored
  real_estate_network: looseText,
  city: looseText,
  postal_code: looseText,
  department: looseText,
  region: looseText,
  latitude: looseNumber,
  longitude: looseNumber,
  dpe: looseText, // "D", "Classe énergie : D (245 kWh/m².an)"
  ges: looseText,
  dpe_value: looseNumber,
  ges_value: looseNumber,
  dpe_chart_url: looseText,
  ges_chart_url: looseText,
  legal_info: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  images: z.union([z.array(z.string()), z.string()]).nullish(),
  video_url: looseText,
  virtual_tour_url: looseText,
  published_at: looseText, // ISO or dd/mm/yyyy
  is_internal: looseBool,
});
export type RawRecord = z.infer<typeof RawRecord>;
