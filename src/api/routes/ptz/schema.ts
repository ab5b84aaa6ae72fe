import { z } from 'zod';

export const PtzZoneAnswer = z.object({
  zone: z.enum(['Abis', 'A', 'B1', 'B2', 'C']),
  codePostal: z.string().regex(/^[0-9]{5}$/),
  source: z.string().describe('Legal basis of the zoning.'),
});
