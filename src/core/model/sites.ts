/** The listing sites (configuration in src/config/sites.json): id, name, home url, priority. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const Site = z.object({
  source: z.string().regex(/^[a-z0-9_-]{1,32}$/),
  name: z.string().min(1),
  url: z.url(),
  /** Lower is better ranked: decides the reference listing of a duplicate group. */
  priority: z.number().int(),
});
export type Site = z.infer<typeof Site>;

export class SiteCatalog {
  private readonly byId: Map<string, Site>;
  readonly sites: readonly Site[];

  constructor(sites: Site[]) {
    this.sites = [...sites].sort((a, b) => a.priority - b.priority || a.source.localeCompare(b.source));
    this.byId = new Map(this.sites.map((s) => [s.source, s]));
  }

  has(source: string): boolean {
    return this.byId.has(source);
  }
  get(source: string): Site | undefined {
    return this.byId.get(source);
  }
  get ids(): string[] {
    return this.sites.map((s) => s.source);
  }
  /** Sorts site ids best-ranked first. */
  rank(a: string, b: string): number {
    return (this.byId.get(a)?.priority ?? Infinity) - (this.byId.get(b)?.priority ?? Infinity) || a.localeCompare(b);
  }
}

const SITES_FILE = new URL('../../config/sites.json', import.meta.url);

export function loadSites(file: URL | string = SITES_FILE): SiteCatalog {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { sites: unknown };
  return new SiteCatalog(z.array(Site).parse(raw.sites));
}
