/**
 * The snapshot options of `npm run indexer -- load` (`--snapshot SITE[:DEPT,...]`, `--absent-loads N`,
 * `--min-ratio R`), checked before the store is opened: a bad value is a usage error naming the
 * option, and the load changes nothing.
 */
import type { SiteCatalog } from '../src/core/model/sites.js';
import type { CommuneTable } from '../src/core/refdata/communes.js';
import { DEFAULT_ABSENT_LOADS, DEFAULT_MIN_RATIO, type SnapshotOptions } from './snapshot.js';

export interface SnapshotArgs {
  snapshot?: string;
  'absent-loads'?: string;
  'min-ratio'?: string;
}

/** The snapshot of the arguments (null: not a snapshot load), or the usage error. */
export function snapshotOptionsOf(args: SnapshotArgs, sites: SiteCatalog, communes: CommuneTable): SnapshotOptions | null | { error: string } {
  if (args.snapshot === undefined) {
    const alone = (['absent-loads', 'min-ratio'] as const).find((name) => args[name] !== undefined);
    return alone ? { error: `--${alone} is for a snapshot load: it needs --snapshot SITE[:DEPT,...]` } : null;
  }
  const colon = args.snapshot.indexOf(':');
  const source = colon < 0 ? args.snapshot : args.snapshot.slice(0, colon);
  if (!sites.has(source)) return { error: `--snapshot: unknown site "${source}" (sites: ${sites.ids.join(', ')})` };
  let departments: string[] | null = null;
  if (colon >= 0) {
    departments = args.snapshot
      .slice(colon + 1)
      .split(',')
      .map((code) => code.trim().toUpperCase());
    if (departments.some((code) => code === ''))
      return { error: `--snapshot: an empty department in "${args.snapshot}" (SITE or SITE:DEPT,DEPT, e.g. ${source}:75,92)` };
    const unknown = departments.filter((code) => communes.departmentName(code) === undefined);
    if (unknown.length > 0) return { error: `--snapshot: not a department: ${unknown.join(', ')} (codes as 01, 2A, 75, 971)` };
    departments = [...new Set(departments)].sort();
  }
  const absentLoads = Number(args['absent-loads'] ?? DEFAULT_ABSENT_LOADS);
  if (!Number.isInteger(absentLoads) || absentLoads < 1 || absentLoads > 1000) {
    return { error: `--absent-loads takes an integer from 1 to 1000, got "${args['absent-loads']}"` };
  }
  const minRatio = Number(args['min-ratio'] ?? DEFAULT_MIN_RATIO);
  if (args['min-ratio']?.trim() === '' || !Number.isFinite(minRatio) || minRatio <= 0 || minRatio > 1) {
    return { error: `--min-ratio takes a number above 0 and at most 1, got "${args['min-ratio']}"` };
  }
  return { scope: { source, departments }, absentLoads, minRatio };
}
