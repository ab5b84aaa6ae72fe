import { z } from 'zod';

export const SourcesAnswer = z.object({
  items: z.array(z.object({ source: z.string(), name: z.string(), url: z.string(), priority: z.number().int() })),
  count: z.number().int(),
});
export type SourcesAnswer = z.infer<typeof SourcesAnswer>;
