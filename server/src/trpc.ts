import { initTRPC } from '@trpc/server';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ChangeFeed } from '@estudio/sync';
import { DomainError, type Role } from '@estudio/core';
import { isConnectionLost } from '@estudio/db/errors';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { apiErrorBody, domainError, toTRPCError, unknownFieldError, unstorableTextError, unstorableTextPath } from './errors.ts';
import { idTokenOf } from './services/auth/authorization-header.ts';
import type { IdentityProvider, VerifiedIdentity } from './services/auth/identity-provider.ts';
import { firstLookAskOf, type FirstLook, type FirstLookAsk } from './services/reservations/first-look.ts';
import type { CallLimits } from './services/rate-limit/call-limits.ts';
import { bucketCaller, limitedProcedures, type LimitBucket } from './services/rate-limit/limited-procedures.ts';
import { findCustomerByUid } from './services/customer/find-customer.ts';
import { linkIdentityByEmail } from './services/auth/link-identity.ts';
import { fieldAliasesOf, unknownFieldOf } from './unknown-fields.ts';

/** The desks' live poke: the change feed, and a signal that ends open pokes when the server closes. */
export interface SyncDeps {
  feed: ChangeFeed;
  closing: AbortSignal;
}

/** What buildServer hands every request. */
export interface AppDeps {
  db: Db;
  config: Config;
  identity: IdentityProvider;
  sync?: SyncDeps;
}

import type { Caller } from './services/auth/caller.ts';
export type { Caller };

export interface Context extends AppDeps {
  /** The caller's ID token (with or without `Bearer `), verified only by procedures that need a caller. */
  token: string | null;
  ip: string;
  log: FastifyBaseLogger;
  /** Per-call limits (decision 012). */
  limits: CallLimits;
  /** Sets a header of the HTTP answer (Retry-After of a limited call). */
  setHeader(name: string, value: string): void;
}

/** One context factory for both transports: /trpc and /api hand in a Fastify request and reply. */
export function createContextFactory(deps: AppDeps & { limits: CallLimits }) {
  return ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Context => ({
    ...deps,
    token: idTokenOf(req.headers.authorization),
    ip: req.ip,
    log: req.log,
    setHeader: (name, value) => void res.header(name, value),
  });
}

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    /**
     * Never in development mode for tRPC: the error formatter below drops the
     * stack, and in development tRPC formats every error's stack for a shape
     * that is thrown away (most of the cost of a refusal).
     */
    isDev: false,
    /**
     * Subscriptions (the desks' poke) stream over SSE. The server pings every
     * 10 s and tells the client to reconnect after 25 s without a byte, so a
     * connection cut without a FIN (a NAT, a sleeping laptop) is noticed.
     */
    sse: { ping: { enabled: true, intervalMs: 10_000 }, client: { reconnectAfterInactivityMs: 25_000 } },
    /**
     * Every error shape carries the domain code and its Spanish message; no
     * stack, no driver text. REST answers are cut down to ApiErrorBody in app.ts.
     */
    errorFormatter({ shape, error }) {
      const body = apiErrorBody(error);
      return {
        message: body.message,
        code: shape.code,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          domainCode: body.code,
          ...(body.field ? { field: body.field } : {}),
          ...(body.decline_code ? { decline_code: body.decline_code } : {}),
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Services throw DomainError; here it becomes a tRPC error with the catalogue's status.
 * A lost database connection is a 503 'db/unavailable': try again. Anything else is left as it is.
 */
function asClientError(cause: unknown): unknown {
  if (cause instanceof DomainError) return toTRPCError(cause);
  if (isConnectionLost(cause)) return toTRPCError(new DomainError('db/unavailable'));
  return cause;
}

/** The input schemas of every procedure by its dotted path ('discounts.create'), filled once by router.ts. */
const inputsByPath = new Map<string, readonly unknown[]>();

/** Records the input schemas of a router's procedures, for the unknown-field check (router.ts calls it with the app's router). */
export function knowInputsOf(appRouter: { _def: { procedures: object } }): void {
  // At run time `_def.procedures` is flat, keyed by the dotted path.
  for (const [path, procedure] of Object.entries(appRouter._def.procedures as Record<string, { _def: { inputs: unknown[] } }>)) {
    inputsByPath.set(path, procedure._def.inputs);
  }
}

/**
 * No silent drop (decision 032): a write (a mutation, over /trpc
 * or its REST route) that carries a field its input does not take is refused
 * whole with 400 'validation/unknown-field', naming the field as sent, before
 * any guard or service runs; nothing is written. Queries still ignore what
 * they do not read. After the address's limit, so a refused sign-in still counts.
 */
function rejectUnknownFields(type: string, path: string, rawInput: unknown): void {
  const inputs = type === 'mutation' ? inputsByPath.get(path) : undefined;
  if (!inputs) return;
  const field = unknownFieldOf(inputs, rawInput, fieldAliasesOf(path));
  if (field !== null) throw unknownFieldError(field);
}

/** Counts one call of `bucket` by `caller`; past the limit, a 429 'rate-limited' with Retry-After. */
async function takeCall(ctx: Context, bucket: LimitBucket, caller: string): Promise<void> {
  const retryAfter = await ctx.limits.take(bucket, caller);
  if (retryAfter === null) return;
  ctx.setHeader('retry-after', String(retryAfter));
  throw new DomainError('rate-limited');
}

/**
 * The per-call limits of server/src/services/rate-limit/limited-procedures.ts
 * that count per `who` ('address' or 'customer'). Middleware runs once per
 * procedure call, so each call of a batch counts, on /trpc and /api alike; it
 * runs before the input is parsed, so malformed calls count too.
 */
async function countCall(ctx: Context, who: 'address' | 'customer', caller: string, path: string, rawInput: unknown): Promise<void> {
  const limit = limitedProcedures[path];
  if (limit?.bucket && bucketCaller[limit.bucket] === who && (!limit.counts || limit.counts(rawInput))) await takeCall(ctx, limit.bucket, caller);
}

/**
 * What every procedure goes through first, in this order: text PostgreSQL
 * cannot store as sent is refused (a NUL byte, which the server refused with a
 * 500, or a lone UTF-16 surrogate, silently turned into U+FFFD), before any
 * guard or service runs, so nothing is half written; the address's limit
 * counts the call; a write with
 * a field its input does not take is refused; then the procedure, whose
 * DomainErrors (and theirs) become the client's errors.
 *
 * One middleware, not four: tRPC copies the call's options and context at
 * every step of a procedure's chain, a visible share of a cheap call's CPU
 * (the profile of the rush, decision 042).
 */
const guardCall = t.middleware(async ({ ctx, type, path, getRawInput, next }) => {
  const rawInput = await getRawInput();
  const unstorable = unstorableTextPath(rawInput);
  if (unstorable !== null) throw unstorableTextError(unstorable);
  try {
    await countCall(ctx, 'address', ctx.ip, path, rawInput);
    rejectUnknownFields(type, path, rawInput);
  } catch (error) {
    throw asClientError(error);
  }
  const result = await next();
  if (!result.ok) {
    const clientError = asClientError(result.error.cause);
    if (clientError !== result.error.cause) throw clientError;
  }
  return result;
});

export const publicProcedure = t.procedure.use(guardCall);

/**
 * Whether the bearer of the request's token is an admin, for public answers
 * that add admin-only parts (the private app settings). A missing or failing
 * token is simply not an admin: the public answer never fails on it.
 */
export async function callerIsAdmin(ctx: Context): Promise<boolean> {
  if (!ctx.token) return false;
  try {
    return (await verifyCaller(ctx, ctx.token)).customer?.role === 'admin';
  } catch {
    return false;
  }
}

/** The caller behind a token (the identity provider, then their customer row); throws what the provider throws. */
export async function verifyCaller(ctx: Context, token: string): Promise<Caller> {
  return callerOf(ctx, await ctx.identity.verifyIdToken(ctx.db, token));
}

async function callerOf(ctx: Context, identity: VerifiedIdentity): Promise<Caller> {
  let customer = identity.customer !== undefined ? identity.customer : await findCustomerByUid(ctx.db, identity.uid);
  // Decision 095: a verified e-mail's first call links the account that has it (another call at once may have linked it).
  if (!customer && identity.emailVerified && identity.email) customer = (await linkIdentityByEmail(ctx.db, { uid: identity.uid, email: identity.email })) ?? (await findCustomerByUid(ctx.db, identity.uid));
  return { uid: identity.uid, email: identity.email, customer, role: customer?.role ?? 'customer' };
}

/** The caller of a call that needs one: no token is a 401 'unauthenticated'. */
async function requireCaller(ctx: Context): Promise<Caller> {
  if (!ctx.token) throw domainError('unauthenticated');
  return verifyCaller(ctx, ctx.token);
}

/**
 * requireCaller, with the first look of the booking `ask` names read by the
 * token check's own statement when the provider can (decision 060); otherwise
 * (no ask, Firebase) the first look is null and the booking reads its own.
 */
async function requireCallerAndFirstLook(ctx: Context, ask: FirstLookAsk | null): Promise<{ caller: Caller; firstLook: FirstLook | null }> {
  if (!ask || !ctx.identity.verifyIdTokenAndFirstLook) return { caller: await requireCaller(ctx), firstLook: null };
  if (!ctx.token) throw domainError('unauthenticated');
  const { firstLook, ...identity } = await ctx.identity.verifyIdTokenAndFirstLook(ctx.db, ctx.token, ask);
  return { caller: await callerOf(ctx, identity), firstLook };
}

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => next({ ctx: { caller: await requireCaller(ctx) } }));

/**
 * Public routes that answer more to a signed-in customer (the schedule shows
 * the caller's own reservations). No token: a visitor (`caller` null). A token
 * that fails verification is still a 401 with the provider's code, so a client
 * with an expired session learns it instead of silently seeing the public view.
 */
export const optionalAuthProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const caller: Caller | null = ctx.token ? await verifyCaller(ctx, ctx.token) : null;
  return next({ ctx: { caller } });
});

/**
 * A signed-in caller with a customer row, whose role `allowed` accepts (any, by default), in this order: the caller
 * (401), their customer row ('customer/not-found'), the limits that count per customer (discount codes tried, whatever
 * the address), then the role ('forbidden'). One middleware for the four, for the reason given at guardCall.
 * `firstLookAsk`, for the booking procedure, names from the input as sent the booking whose first look the token's
 * check reads along (ctx.firstLook, decision 060); every other procedure's ctx.firstLook is null.
 */
function customerProcedureFor(allowed: (role: Role) => boolean = () => true, firstLookAsk?: (rawInput: unknown) => FirstLookAsk | null) {
  return publicProcedure.use(async ({ ctx, path, getRawInput, next }) => {
    const ask = firstLookAsk ? firstLookAsk(await getRawInput()) : null;
    const { caller, firstLook } = await requireCallerAndFirstLook(ctx, ask);
    const { customer } = caller;
    if (!customer) throw domainError('customer/not-found');
    if (limitedProcedures[path]) await countCall(ctx, 'customer', `customer:${customer.customer_id}`, path, await getRawInput());
    if (!allowed(customer.role)) throw domainError('forbidden');
    return next({ ctx: { caller, customer, firstLook } });
  });
}

export const customerProcedure = customerProcedureFor();

/** A customer booking a class (any role): the token's check reads the booking's first look along (decision 060). */
export const bookingProcedure = customerProcedureFor(() => true, firstLookAskOf);

export const staffProcedure = customerProcedureFor((role) => role === 'staff' || role === 'admin');

export const adminProcedure = customerProcedureFor((role) => role === 'admin');

/**
 * A coach (decision 045): its own classes and their rosters, read-only. Only
 * the coach role; which classes are its own is decided by the services
 * (single_class_instructor through instructor.customer_id), not here.
 */
export const coachProcedure = customerProcedureFor((role) => role === 'coach');
