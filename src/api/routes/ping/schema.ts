import { z } from 'zod';

export const PingAnswer = z.object({
  ok: z.literal(true),
  api_key_name: z.string(),
  tier: z.string().describe('The offer of the account.'),
  rate_limit_per_sec: z.number().int(),
  rate_limit_per_min: z.number().int(),
  items_per_day: z.number().int(),
  server_time: z.string().describe('ISO 8601 date-time'),
});
export type PingAnswer = z.infer<typeof PingAnswer>;
