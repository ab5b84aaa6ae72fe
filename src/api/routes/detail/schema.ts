/** Path parameters of GET /annonces/{source}/{reference}. */
import { z } from 'zod';
import { Annonce } from '../../../core/model/annonce.js';

export const DetailParams = z.object({
  source: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'must match ^[a-z0-9_-]{1,32}$'),
  reference: z.string().min(1, 'is required').max(128, 'at most 128 characters'),
});
export type DetailParams = z.infer<typeof DetailParams>;

export const ListingDetail = z.object({ annonce: Annonce });
