/**
 * Validates a route's query and path parameters with its zod schemas and hands the handler the
 * parsed value, typed from the schemas: `input({ query, path })` gives the middleware that parses and
 * a `handle(handler)` whose handler receives `(ctx, params)`, both halves in one object. The route
 * table (route.ts) wires both, so a handler written for other schemas does not compile.
 *
 * Every faulty field is reported in `details[]`: a malformed value is a 400; a schema's cross-field
 * rule (a min above its max), flagged with `contradiction`, is a 422, only once every field is well
 * formed (contradictory values are not clamped). A query parameter the schema does not name is a
 * 400 UNKNOWN_PARAMETER before any of this (known-parameters.ts); a route without a query schema
 * takes no query parameter.
 */
import type { Next } from 'koa';
import type { ApiContext, ApiMiddleware } from '../state.js';
import type { z } from 'zod';
import { badRequest, unprocessable, type FieldIssue } from '../errors.js';
import { unknownParameters } from './known-parameters.js';

/** A handler of a validated route. */
export type RouteHandler<P> = (ctx: ApiContext, params: P) => Promise<void>;

export interface RouteInput<P> {
  /** Parses the request; 400 or 422 on failure. */
  validate: ApiMiddleware;
  /** The parsed value of this request; throws when `validate` did not run before. */
  params(ctx: ApiContext): P;
  /** The route's last middleware: `handler` receives the parsed value. */
  handle(handler: RouteHandler<P>): ApiMiddleware;
}

type Output<S> = S extends z.ZodType ? z.output<S> : unknown;

export function input<Q extends z.ZodObject | undefined = undefined, P extends z.ZodObject | undefined = undefined>(schemas: {
  query?: Q;
  path?: P;
}): RouteInput<Output<Q> & Output<P>> {
  const queryNames = schemas.query ? Object.keys(schemas.query.shape) : [];
  const parse = (ctx: ApiContext) => {
    // The path's faults first, then the query's: every faulty field reported at once.
    const path = schemas.path?.safeParse(ctx.params);
    const query = schemas.query?.safeParse(ctx.query);
    const issues = [...(path?.error?.issues ?? []), ...(query?.error?.issues ?? [])];
    // Each half is its schema's output; together they are the handler's parameters.
    return { issues, value: { ...path?.data, ...query?.data } as Output<Q> & Output<P> };
  };
  // Keyed by the request's context, so nothing untyped travels through ctx.state.
  const parsed = new WeakMap<ApiContext, { value: Output<Q> & Output<P> }>();
  const params = (ctx: ApiContext): Output<Q> & Output<P> => {
    const entry = parsed.get(ctx);
    if (entry) return entry.value;
    // Without schemas there is nothing to parse (and nothing to miss): the handler gets an empty object.
    if (!schemas.query && !schemas.path) return parse(ctx).value;
    throw new Error('route handler reached without its validate middleware');
  };
  return {
    validate: async function validateMiddleware(ctx: ApiContext, next: Next): Promise<void> {
      const unknown = unknownParameters(ctx.query, queryNames);
      if (unknown) throw unknown;
      const { issues, value } = parse(ctx);
      if (issues.length) throw rejection(issues);
      parsed.set(ctx, { value });
      await next();
    },
    params,
    handle: (handler) =>
      async function handleValidated(ctx: ApiContext): Promise<void> {
        await handler(ctx, params(ctx));
      },
  };
}

const CONTRADICTION = 'contradiction';

/** Adds a cross-field issue (answered 422) to a schema's refinement. */
export function contradiction(ctx: z.core.$RefinementCtx, field: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [field], message, params: { kind: CONTRADICTION } });
}

const isContradiction = (issue: z.core.$ZodIssue): boolean => issue.code === 'custom' && issue.params?.kind === CONTRADICTION;

/** 400 naming every malformed field; 422 only when the values are well formed but contradict each other. */
export function rejection(issues: readonly z.core.$ZodIssue[]) {
  const malformed = issues.filter((issue) => !isContradiction(issue));
  return malformed.length ? badRequest(issuesToDetails(malformed)) : unprocessable(issuesToDetails(issues));
}

function issuesToDetails(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
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
