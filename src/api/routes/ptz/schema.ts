/** GET /ptz/zone?cp=: the postal code, and the zone answered. */
import { z } from 'zod';

export const PtzParams = z.object({
  cp: z.string({ error: 'is required: a postal code of exactly 5 digits' }).regex(/^[0-9]{5}$/, 'must be exactly 5 digits'),
});
export type PtzParams = z.infer<typeof PtzParams>;

export const PtzZoneAnswer = z.object({
  zone: z.enum(['Abis', 'A', 'B1', 'B2', 'C']),
  codePostal: z.string().regex(/^[0-9]{5}$/),
  source: z.string().describe('Legal basis of the zoning.'),
});
