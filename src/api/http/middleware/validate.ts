/**
 * Validates `ctx.query` (or the path params) with a route's zod schema and hands the handler the
 * parsed value, typed from the schema: `input(schema)` gives the middleware that parses and a
 * `handle(handler)` whose handler receives `(ctx, params)`. The router wires both, so a handler
 * written for another schema does not compile.
 *
 * Every faulty field is reported in `details[]`: a malformed value is a 400; a schema's cross-field
 * rule (a min above its max), flagged with `contradiction`, is a 422, only once every field is well
 * formed (contradictory values are not clamped). A query parameter the schema does not name is a
 * 400 UNKNOWN_PARAMETER before any of this (known-parameters.ts); a route reading its path takes no
 * query parameter.
 */
import type { Context, Middleware, Next } from 'koa';
import type { z } from 'zod';
import { badRequest, unprocessable, type FieldIssue } from '../errors.js';
import { unknownParameters } from './known-parameters.js';

/** A handler of a validated route. */
export type RouteHandler<P> = (ctx: Context, params: P) => Promise<void>;

export interface RouteInput<P> {
  /** Parses the request; 400 or 422 on failure. */
  validate: Middleware;
  /** The parsed value of this request; throws when `validate` did not run before. */
  params(ctx: Context): P;
  /** The route's last middleware: `handler` receives the parsed value. */
  handle(handler: RouteHandler<P>): Middleware;
}

export function input<S extends z.ZodType>(schema: S, pick?: (ctx: Context) => unknown, querySchema?: z.ZodType): RouteInput<z.output<S>> {
  // The query's known names: the schema's, or with `pick` (path parameters) those of `querySchema`, else none.
  const queryNames = pick ? (querySchema ? parameterNames(querySchema) : []) : parameterNames(schema);
  const read = pick ?? ((ctx: Context) => ctx.query);
  // Keyed by the request's context, so nothing untyped travels through ctx.state.
  const parsed = new WeakMap<Context, { value: z.output<S> }>();
  const params = (ctx: Context): z.output<S> => {
    const entry = parsed.get(ctx);
    if (!entry) throw new Error('route handler reached without its validate middleware');
    return entry.value;
  };
  return {
    validate: async function validateMiddleware(ctx: Context, next: Next): Promise<void> {
      const unknown = unknownParameters(ctx.query, queryNames);
      if (unknown) throw unknown;
      const result = schema.safeParse(read(ctx));
      if (!result.success) throw rejection(result.error.issues);
      parsed.set(ctx, { value: result.data });
      await next();
    },
    params,
    handle: (handler) =>
      async function handleValidated(ctx: Context): Promise<void> {
        await handler(ctx, params(ctx));
      },
  };
}

/** The names an object schema takes (its shape's keys; refinements keep the shape). */
function parameterNames(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape) throw new Error('a query schema must be an object schema');
  return Object.keys(shape);
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
