import { z } from 'zod';

const Check = z.object({
  ok: z.boolean(),
  backend: z.string(),
  listings: z.number().int().optional().describe('Stored listings, every status (listings store only).'),
  detail: z.string().optional().describe('Why the check failed.'),
});

export const HealthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  time: z.string(),
  checks: z.object({ listings: Check, access: Check }),
});
export type HealthAnswer = z.infer<typeof HealthAnswer>;
