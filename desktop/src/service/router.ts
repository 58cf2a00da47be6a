import { initTRPC, TRPCError } from '@trpc/server';
import { customerCreateInput, customerRef, deskMutationArgs, deskPinPattern, DomainError, staffErrorMessage, z, type ApiErrorBody, type DeskMutationArgs } from '@estudio/core';
import type { DeskEvent, DeskService } from './desk-service.ts';
import { ServerAnswerError } from './server-proxy.ts';

export interface DeskContext {
  desk: DeskService;
}

const trpcCodeOf = (status: number): TRPCError['code'] =>
  status === 401 ? 'UNAUTHORIZED' : status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : status === 409 ? 'CONFLICT' : status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST';

/**
 * The error the renderer shows: a DomainError's Spanish message (in the staff
 * wording where the catalogue's speaks to the customer), a validation's first
 * Spanish issue, or a generic Spanish text.
 */
export function errorBody(error: TRPCError): ApiErrorBody {
  const cause = error.cause;
  if (cause instanceof ServerAnswerError && cause.field) return { code: cause.code, message: staffErrorMessage(cause.code, cause.message), field: cause.field };
  if (cause instanceof DomainError) return { code: cause.code, message: staffErrorMessage(cause.code, cause.message) };
  if (cause instanceof z.ZodError) {
    const issue = cause.issues[0];
    return { code: 'validation', message: issue?.message ?? 'Revisa los datos.', ...(issue?.path.length ? { field: issue.path.join('.') } : {}) };
  }
  return { code: 'internal', message: 'Algo salió mal en la recepción. Inténtalo de nuevo.' };
}

const t = initTRPC.context<DeskContext>().create({
  errorFormatter({ shape, error }) {
    const body = errorBody(error);
    return { ...shape, message: body.message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, domainCode: body.code, field: body.field } };
  },
});

/** DomainErrors leave with the catalogue's status, so the HTTP answer matches what happened. */
const procedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodeOf(cause.status), message: cause.message, cause });
  }
  return result;
});

const proxyInput = z.object({ path: z.string().max(200), input: z.unknown().optional() });

const id = z.number({ error: 'Debe ser un número.' }).int().positive();

/** Mutation procedures: validated with the protocol's own schemas, applied through the sync client (optimistic, durable). */
const mutation = <N extends keyof typeof deskMutationArgs>(name: N) =>
  // The schema of `name` parsed the input; TypeScript cannot tie a generic name to its schema's output by itself.
  procedure.input(deskMutationArgs[name]).mutation(async ({ ctx, input }) => ctx.desk.mutate(name, input as DeskMutationArgs<N>));

/**
 * The desk's API, served over HTTP on loopback by the desk service's process
 * (Electron's window and `desk:web` alike). Reads come from the replica;
 * writes are sync mutations.
 */
export const deskRouter = t.router({
  session: t.router({
    get: procedure.query(async ({ ctx }) => ({
      user: ctx.desk.user(),
      problem: ctx.desk.sessionProblem,
      serverUrl: ctx.desk.serverAddress().url,
      server: ctx.desk.serverAddress(),
      ...(await ctx.desk.lockState()),
      timeZone: await ctx.desk.timeZone(),
    })),
    signIn: procedure
      .input(
        z.object({
          email: z.string().trim().toLowerCase().pipe(z.email({ error: 'El correo electrónico no es válido.' })),
          password: z.string().min(1, { error: 'Debes escribir tu contraseña.' }).max(256),
        }),
      )
      .mutation(({ ctx, input }) => ctx.desk.signIn(input.email, input.password)),
    signOut: procedure.mutation(async ({ ctx }) => {
      await ctx.desk.signOut();
      return { ok: true as const };
    }),
    /** 'Bloquear': every other call is refused until unlocked or another account signs in. */
    lock: procedure.mutation(async ({ ctx }) => {
      await ctx.desk.lock();
      return { ok: true as const };
    }),
    unlock: procedure
      .input(
        z.union([
          z.object({ pin: z.string().trim().regex(deskPinPattern, { error: 'El PIN debe tener de 4 a 6 números.' }) }),
          z.object({ password: z.string().min(1, { error: 'Debes escribir tu contraseña.' }).max(256) }),
        ]),
      )
      .mutation(({ ctx, input }) => ctx.desk.unlock(input)),
    setPin: procedure
      .input(
        z.object({
          password: z.string().min(1, { error: 'Debes escribir tu contraseña.' }).max(256),
          pin: z.string().trim().regex(deskPinPattern, { error: 'El PIN debe tener de 4 a 6 números.' }),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        await ctx.desk.setPin(input.password, input.pin);
        return { ok: true as const };
      }),
  }),

  /** The studio's server address: the first-run screen sets it, an admin may change it (decision 019). */
  serverAddress: t.router({
    get: procedure.query(({ ctx }) => ctx.desk.serverAddress()),
    set: procedure
      .input(z.object({ url: z.string().trim().min(1, { error: 'Escribe la dirección del servidor.' }).max(300, { error: 'La dirección es demasiado larga.' }) }))
      .mutation(({ ctx, input }) => ctx.desk.setServerAddress(input.url)),
  }),

  status: t.router({
    get: procedure.query(({ ctx }) => ctx.desk.status()),
    dismiss: procedure.input(z.object({ mutationId: id })).mutation(async ({ ctx, input }) => {
      await ctx.desk.dismissRejection(input.mutationId);
      return { ok: true as const };
    }),
    /** Staff read that a customer registered offline was one the server already had. */
    dismissAdoption: procedure.input(z.object({ mutationId: id })).mutation(async ({ ctx, input }) => {
      await ctx.desk.dismissAdoption(input.mutationId);
      return { ok: true as const };
    }),
    /** Emits on every change of the replica, the outbox or the connection, so every screen refreshes live. */
    changes: procedure.subscription(async function* ({ ctx, signal }) {
      yield { tables: [], status: ctx.desk.status(), user: ctx.desk.user() } satisfies DeskEvent;
      yield* ctx.desk.changes(signal);
    }),
  }),

  today: procedure.input(z.object({ date: z.iso.date().optional() }).optional()).query(({ ctx, input }) => ctx.desk.today(input?.date)),

  checkIn: t.router({
    scan: procedure
      .input(z.object({ code: z.string().trim().min(1, { error: 'Escanea o escribe un código.' }).max(500) }))
      .mutation(({ ctx, input }) => ctx.desk.scan(input.code)),
    byReservation: procedure.input(z.object({ class_reservation_id: id })).mutation(({ ctx, input }) => ctx.desk.checkIn(input.class_reservation_id)),
  }),

  customers: t.router({
    search: procedure.input(z.object({ q: z.string().max(120) })).query(({ ctx, input }) => ctx.desk.searchCustomers(input.q)),
    card: procedure.input(z.object({ customer_id: customerRef })).query(({ ctx, input }) => ctx.desk.customerCard(input.customer_id)),
    photo: procedure.input(z.object({ customer_id: customerRef })).query(({ ctx, input }) => ctx.desk.customerPhoto(input.customer_id)),
    accessOptions: procedure.query(({ ctx }) => ctx.desk.accessOptions()),
    warnings: procedure.input(z.object({ customer_id: customerRef })).query(({ ctx, input }) => ctx.desk.counterWarnings(input.customer_id)),
    notes: procedure.input(z.object({ customer_id: customerRef })).query(({ ctx, input }) => ctx.desk.customerNotes(input.customer_id)),
    bookableClasses: procedure.query(({ ctx }) => ctx.desk.bookableClasses()),
    // A first-time walk-in (online the server gives the id; offline a temporary one, decision 113), and the documents they accept.
    documents: procedure.query(({ ctx }) => ctx.desk.requiredDocuments()),
    create: procedure.input(customerCreateInput).mutation(({ ctx, input }) => ctx.desk.createCustomer(input)),
  }),

  // Reads behind the cancel and waitlist modals.
  reservations: t.router({
    cancelPreview: procedure.input(z.object({ class_reservation_id: id })).query(({ ctx, input }) => ctx.desk.cancelPreview(input.class_reservation_id)),
    waitlist: procedure.input(z.object({ single_class_id: id })).query(({ ctx, input }) => ctx.desk.classWaitlist(input.single_class_id)),
    waitlistCounts: procedure.query(({ ctx }) => ctx.desk.waitlistCounts()),
  }),

  actions: t.router({
    walkIn: mutation('walkIn'),
    markReservationPaid: mutation('markReservationPaid'),
    markPurchasePaid: mutation('markPurchasePaid'),
    giveAccess: mutation('giveAccess'),
    sellAtDesk: mutation('sellAtDesk'),
    revokeAccess: mutation('revokeAccess'),
    removeClasses: mutation('removeClasses'),
    cancelReservation: mutation('cancelReservation'),
    undoCheckIn: mutation('undoCheckIn'),
    moveReservation: mutation('moveReservation'),
    joinWaitlist: mutation('joinWaitlist'),
    leaveWaitlist: mutation('leaveWaitlist'),
    addCustomerNote: mutation('addCustomerNote'),
    removeCustomerNote: mutation('removeCustomerNote'),
    /** Decision 018: the customer accepted these documents in person; the desk stamps the time. */
    acceptDocuments: procedure
      .input(deskMutationArgs.acceptDocuments.omit({ at: true }))
      .mutation(({ ctx, input }) => ctx.desk.acceptDocuments(input.customer_id, input.page_ids, input.versions_read)),
  }),

  /**
   * The admin console: a call to the server's tRPC router, forwarded with the
   * desk's token (the renderer's serverLink sends every op of its typed
   * AppRouter client here). Answers and Spanish errors come back as the server gave them.
   */
  server: t.router({
    query: procedure.input(proxyInput).query(({ ctx, input }) => ctx.desk.callServer('query', input.path, input.input)),
    mutation: procedure.input(proxyInput).mutation(({ ctx, input }) => ctx.desk.callServer('mutation', input.path, input.input)),
    /** An image field's preview as a data: URL (the window's policy shows no other origin's pictures). */
    imagePreview: procedure.input(z.object({ src: z.string().max(2000) })).query(({ ctx, input }) => ctx.desk.imagePreview(input.src)),
    /** An image of the console's forms (base64 over IPC; the server's own limit, 5 MB by default, is checked there). */
    uploadImage: procedure
      .input(z.object({ name: z.string().max(300), type: z.string().max(100), data: z.string().max(16_000_000) }))
      .mutation(({ ctx, input }) => ctx.desk.uploadImage(input.name, input.type, input.data)),
    /**
     * A video file picked in Electron's window, by its path on this computer (decision 046): the main process
     * streams it to the server. desk:web posts the file's bytes to its own /upload/video instead (web/server.ts).
     */
    uploadVideoFromPath: procedure.input(z.object({ path: z.string().min(1).max(4096) })).subscription(async function* ({ ctx, input, signal }) {
      yield* videoUploadEvents((options) => ctx.desk.uploadVideoFromPath(input.path, options), signal);
    }),
  }),
});

export type DeskRouter = typeof deskRouter;

/** What a video upload from the disk tells the console as it goes: the bytes read so far, then the stored file. */
export type VideoUploadEvent = { sent: number; total: number } | { stored: { file_id: number; src: string; size: number; type: string } };

/**
 * Runs an upload and yields its progress (at most one event per whole
 * percent) and then the stored file; the subscription's end (the console's
 * Cancelar, or its window closing) aborts it.
 */
export async function* videoUploadEvents(
  upload: (options: { signal: AbortSignal; onProgress: (sent: number, total: number) => void }) => Promise<{ file_id: number; src: string; size: number; type: string }>,
  signal: AbortSignal | undefined,
): AsyncGenerator<VideoUploadEvent> {
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let pending: VideoUploadEvent | null = null;
  let wake: (() => void) | null = null;
  let shownPercent = -1;
  const result = upload({
    signal: abort.signal,
    onProgress: (sent, total) => {
      const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
      if (percent === shownPercent) return;
      shownPercent = percent;
      pending = { sent, total };
      wake?.();
    },
  });
  // Set before waking, so the loop below sees the end on the turn it is woken.
  let finished = false;
  void result
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      finished = true;
      wake?.();
    });
  try {
    for (;;) {
      if (!pending && !finished) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const event: VideoUploadEvent | null = pending;
      pending = null;
      if (event) yield event;
      else if (finished) break;
    }
    yield { stored: await result };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    abort.abort();
  }
}
