/**
 * Validates `ctx.query` (and path params) with the route's zod schema. Reports EVERY faulty field in
 * `details[]`; the handler receives only the cleaned, typed value in `ctx.state.params`.
 */
import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { badRequest, type FieldIssue } from '../errors.js';

export function validate<S extends z.ZodType>(schema: S, pick: (ctx: Context) => unknown = (ctx) => ctx.query) {
  return async function validateMiddleware(ctx: Context, next: Next): Promise<void> {
    const result = schema.safeParse(pick(ctx));
    if (!result.success) throw badRequest(issuesToDetails(result.error.issues));
    ctx.state.params = result.data;
    await next();
  };
}

export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  const seen = new Set<string>();
  const details: FieldIssue[] = [];
  for (const issue of issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'query';
    const key = `${field}:${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ field, message: issue.message });
  }
  return details;
}
