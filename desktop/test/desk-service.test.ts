import http from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { and, eq, isNull } from 'drizzle-orm';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { class_reservation, class_type, customer, file, location, purchase, room, single_class } from '@estudio/db';
import { openReplica } from '@estudio/sync/client/replica';
import { localFilesDir } from '../../server/src/services/files/files.ts';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { DeskService, type DeskEvent } from '../src/service/desk-service.ts';
import { videoUploadEvents, type DeskRouter, type VideoUploadEvent } from '../src/service/router.ts';
import { syncDeps } from '../src/service/sync-deps.ts';
import { checkInStart } from './check-in-time.ts';
import { defaultStudioTimeZone } from '@estudio/core';
import { studioDay } from '../src/service/time.ts';
import { startDeskWeb } from '../src/web/server.ts';

/**
 * The desk service against the real server over HTTP (tRPC, poke over SSE),
 * with its replica filled by the sync client from the seeded demo studio:
 * the same path `desk:web` and Electron take.
 */
let server: TestServer;
let serverUrl: string;
let dataDir: string;
let desk: DeskService;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const openDesk = async () => {
  const d = new DeskService({ dataDir, serverUrl }, syncDeps);
  await d.start();
  return d;
};

async function clienteToday() {
  const day = studioDay(new Date(), defaultStudioTimeZone);
  const rows = await server.db
    .select({ id: class_reservation.class_reservation_id, date: single_class.class_date })
    .from(class_reservation)
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(and(eq(customer.email, 'cliente@estudio.demo'), isNull(class_reservation.deletedAt)));
  const today = rows.find((r) => r.date >= day.start && r.date < day.end);
  const other = rows.find((r) => r.date >= day.end);
  if (!today || !other) throw new Error('the demo seed gives cliente@ a reservation today and an upcoming one');
  return { today: today.id, other: other.id };
}

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'desk-replica-'));
  desk = await openDesk();
});

afterAll(async () => {
  await desk?.close();
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('desk service', () => {
  it('refuses a customer account in Spanish and signs staff in', async () => {
    await expect(desk.signIn('cliente@estudio.demo', 'Demo1234!')).rejects.toMatchObject({
      code: 'desk/staff-only',
      message: 'Solo el personal de recepción, un coach o un administrador puede usar la recepción.',
    });
    await expect(desk.signIn('recepcion@estudio.demo', 'mala')).rejects.toMatchObject({ code: 'auth/wrong-password' });
    const user = await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
    expect(user).toMatchObject({ email: 'recepcion@estudio.demo', role: 'staff' });
    await until('first sync', () => desk.status().ready && desk.status().online);
  });

  it('shows today by location with rosters, and finds customers by name, e-mail and phone', async () => {
    const { today } = await clienteToday();
    const day = await desk.today();
    expect(day.locations.length).toBeGreaterThan(0);
    const roster = day.locations.flatMap((l) => l.classes.flatMap((c) => c.roster));
    expect(roster.find((r) => r.class_reservation_id === today)).toMatchObject({ name: 'Mariana', attend: false });

    const hits = await desk.searchCustomers('clie');
    expect(hits.map((h) => h.email)).toContain('cliente@estudio.demo');
    const mariana = hits.find((h) => h.email === 'cliente@estudio.demo');
    expect((await desk.searchCustomers('mariana ló')).map((h) => h.customer_id)).toContain(mariana?.customer_id);
    expect((await desk.searchCustomers(mariana?.phone?.slice(0, 6) ?? 'x')).map((h) => h.customer_id)).toContain(mariana?.customer_id);
    expect(await desk.searchCustomers('%')).toEqual([]);

    const card = await desk.customerCard(mariana?.customer_id ?? 0);
    expect(card.totalCredits).toBe(5);
    expect(card.purchases.map((p) => p.title)).toEqual(['10 Clases']);
    expect(card.upcoming.map((r) => r.class_reservation_id)).toContain(today);
    expect(card.past.some((r) => r.attend)).toBe(true);
  });

  it('offers a class in a room with the room’s seat map, and refuses a seat the room does not have, offline too', async () => {
    const [place] = await server.db.select({ id: location.location_id, name: location.name }).from(location).orderBy(location.location_id).limit(1);
    const [yoga] = await server.db.select({ id: class_type.class_type_id, spot_map: class_type.spot_map }).from(class_type).where(eq(class_type.name, 'Yoga'));
    expect(yoga?.spot_map, 'Yoga has no seat map of its own').toBeNull();
    const [small] = await server.db.insert(room).values({ location_id: place?.id ?? 0, name: 'Salón Recepción', capacity: 4, spot_map: '2,2' }).returning();
    // Within the next hours (bookable at the desk), not a day ahead: the walk-in test below picks a class from then on.
    const [klass] = await server.db
      .insert(single_class)
      .values({ class_date: new Date(Date.now() + 3 * 3_600_000), duration_minutes: 30, capacity: 4, location_id: place?.id ?? 0, room_id: small?.room_id ?? null, class_type_id: yoga?.id ?? 0 })
      .returning({ id: single_class.single_class_id });
    const offered = async () => (await desk.bookableClasses()).find((c) => c.single_class_id === klass?.id);
    await until('the class in its room reaches the replica', async () => (await offered()) !== undefined);
    expect(await offered()).toMatchObject({ spot_map: '2,2', location: `${place?.name} · Salón Recepción` });
    const [mariana] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    await expect(desk.mutate('walkIn', { customer_id: mariana?.id ?? 0, single_class_id: klass?.id ?? 0, spot: 5, guest: null })).rejects.toMatchObject({ code: 'booking/spot-invalid' });
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, klass?.id ?? 0));
  });

  it('checks in the QR code of a reservation of today, once, and the server records it; old links and folios are refused', async () => {
    const { today, other } = await clienteToday();
    const codeOf = async (id: number) =>
      (await server.db.select({ code: class_reservation.access_code }).from(class_reservation).where(eq(class_reservation.class_reservation_id, id)))[0]?.code ?? '';
    // The seed's class of today may be outside the check-in window at this hour: move it to start in ten minutes.
    const [row0] = await server.db.select({ cls: class_reservation.single_class_id }).from(class_reservation).where(eq(class_reservation.class_reservation_id, today));
    const soon = checkInStart(10);
    await server.db.update(single_class).set({ class_date: soon }).where(eq(single_class.single_class_id, row0?.cls ?? 0));
    const code = await codeOf(today);
    await until('the moved class reaches the replica', async () => (await desk.db.select().from(single_class).where(eq(single_class.single_class_id, row0?.cls ?? 0)))[0]?.class_date.getTime() === soon.getTime());
    await expect(desk.scan(`http://127.0.0.1:3000/admin/reservaciones/${today}\n`)).rejects.toMatchObject({ code: 'desk/code-outdated' });
    await expect(desk.scan(String(today))).rejects.toMatchObject({ code: 'desk/code-outdated' });
    const first = await desk.scan(`http://127.0.0.1:3000/admin/reservaciones/${today}/${code}\n`);
    expect(first).toMatchObject({ checkedIn: true, outcome: 'admitted', warnings: [], reservation: { name: 'Mariana', attend: true } });
    await until('pending sent', () => desk.status().pending === 0);
    const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, today));
    expect(row?.attend).toBe(true);

    const again = await desk.scan(`${code.slice(0, 5).toLowerCase()}-${code.slice(5)}`);
    expect(again).toMatchObject({ checkedIn: false, outcome: 'already', warnings: ['already-attended'] });

    const wrongDay = await desk.scan(`https://estudio.demo/admin/reservaciones/${other}/${await codeOf(other)}`);
    expect(wrongDay).toMatchObject({ checkedIn: false, outcome: 'refused' });
    expect(wrongDay.warnings).toContain('wrong-day');
    await expect(desk.scan('hola')).rejects.toMatchObject({ code: 'desk/code-not-recognised' });
    await expect(desk.scan('ZZZZZ-ZZZZZ')).rejects.toMatchObject({ code: 'desk/code-unknown' });
  });

  it('serves its screens and its router over HTTP, only to pages of its own loopback origin', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'desk-web-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Recepción</title>');
    const web = await startDeskWeb({ port: 0, distDir: dist, desk });
    const base = `http://127.0.0.1:${web.port}`;
    try {
      // Any local process (curl) read the signed-in user's data. Without this run's key, nothing answers.
      const salesReport = `/trpc/server.query?input=${encodeURIComponent(JSON.stringify({ path: 'reports.sales', input: {} }))}`;
      for (const path of ['/trpc/session.get', salesReport, '/', '/index.html']) {
        const denied = await fetch(`${base}${path}`);
        expect(denied.status, path).toBe(401);
        expect(await denied.text(), path).not.toContain('recepcion@estudio.demo');
      }
      const wrongKey = await fetch(`${base}/trpc/session.get`, { headers: { cookie: `${web.cookieName}=otra-llave` } });
      expect(wrongKey.status).toBe(401);
      expect(((await wrongKey.json()) as { error: { message: string; data: { domainCode: string } } }).error).toMatchObject({
        message: 'Abre la recepción con el enlace que muestra la terminal donde la iniciaste (npm run desk:web).',
        data: { domainCode: 'desk/key-required' },
      });
      // A batch is refused call by call, in the router's own shape.
      const batch = await fetch(`${base}/trpc/session.get,status.get?batch=1&input=${encodeURIComponent('{}')}`);
      expect(batch.status).toBe(401);
      expect(((await batch.json()) as unknown[]).length).toBe(2);
      expect((await fetch(`${base}/?llave=otra-llave`, { redirect: 'manual' })).status).toBe(401);
      expect((await fetch(`${base}/health`)).status).toBe(200);

      // The link the terminal shows: the key becomes an HttpOnly, SameSite=Strict cookie and leaves the address bar.
      expect(web.url).toBe(`${base}/?llave=${web.key}`);
      const opened = await fetch(web.url, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      expect(opened.headers.get('location')).toBe('/');
      const setCookie = opened.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Strict/);
      const cookie = setCookie.split(';')[0] ?? '';
      expect(await (await fetch(base, { headers: { cookie } })).text()).toContain('Recepción');
      const withCookie = (init?: RequestInit): RequestInit => ({ ...init, headers: { ...(init?.headers as Record<string, string>), cookie } });
      const client = createTRPCClient<DeskRouter>({
        links: [
          splitLink({
            condition: (op) => op.type === 'subscription',
            true: httpSubscriptionLink({
              url: `${base}/trpc`,
              EventSource,
              eventSourceOptions: { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, withCookie(init)) },
            }),
            false: httpBatchLink({ url: `${base}/trpc`, headers: { cookie } }),
          }),
        ],
      });
      expect((await client.session.get.query()).user).toMatchObject({ email: 'recepcion@estudio.demo' });
      // A refresh of every screen's reads goes out as one batched GET whose path names them all (well over 100
      // characters): Fastify's default route parameter limit answered it 404, so an open card fell to its error and
      // came back, remounting any dialog over it every second and a half while the desk was offline.
      const [hit] = await client.customers.search.query({ q: 'cliente@' });
      const customerId = hit?.customer_id ?? 0;
      const everything = await Promise.all([
        client.session.get.query(),
        client.status.get.query(),
        client.customers.bookableClasses.query(),
        client.customers.card.query({ customer_id: customerId }),
        client.customers.photo.query({ customer_id: customerId }),
        client.customers.warnings.query({ customer_id: customerId }),
        client.customers.search.query({ q: 'cliente@' }),
      ]);
      expect(everything[3].customer.customer_id).toBe(customerId);
      await expect(client.checkIn.scan.mutate({ code: 'no es un código' })).rejects.toMatchObject({
        message: 'Esto no es un Código de Acceso del estudio. Escanea el código de la app del cliente o escríbelo (10 letras y números).',
        data: { domainCode: 'desk/code-not-recognised', httpStatus: 400 },
      });
      const first = await new Promise<DeskEvent>((resolve, reject) => {
        const sub = client.status.changes.subscribe(undefined, {
          onData: (event) => {
            sub.unsubscribe();
            resolve(event as DeskEvent);
          },
          onError: reject,
        });
      });
      expect(first.status).toMatchObject({ ready: true });

      const foreign = await fetch(`${base}/trpc/session.get`, { headers: { origin: 'https://otro-sitio.example', cookie } });
      expect(foreign.status).toBe(403);
      // fetch may not set Host; a DNS-rebinding page's requests carry the attacker's host name.
      const rebound = await new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: web.port, path: '/trpc/session.get', headers: { host: 'recepcion.example', cookie } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
      expect(rebound).toBe(403);
    } finally {
      await web.close({ keepDesk: true });
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('grants access, removes classes, books a walk-in, takes cash and revokes access through the outbox', async () => {
    const synced = () => until('outbox sent', () => desk.status().pending === 0 && desk.status().online);
    const [nuevo] = await desk.searchCustomers('nuevo@estudio.demo');
    const customerId = nuevo?.customer_id ?? 0;
    expect((await desk.customerCard(customerId)).totalCredits).toBe(0);
    const options = await desk.accessOptions();
    const pack = options.packages.find((p) => p.title === '10 Clases');
    const cash = options.paymentMethods.find((m) => m.provider === 'cash');
    expect(pack && cash).toBeTruthy();

    await desk.mutate('giveAccess', { customer_id: customerId, class_package_id: pack?.class_package_id ?? 0, package_days: 30, is_gift: false, payment_method_id: cash?.payment_method_id ?? null, bill: true, reason: null, terminal: null });
    // Optimistic: the card shows the credits before the server answers.
    expect((await desk.customerCard(customerId)).totalCredits).toBe(10);
    await synced();
    const granted = (await desk.customerCard(customerId)).purchases.find((p) => p.title === '10 Clases');
    expect(granted?.purchase_id).toBeGreaterThan(0);
    // The picker shows what is charged (the sale price), one price.
    const [charged] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, granted?.purchase_id ?? 0));
    expect(pack?.price).toBe('1350.00');
    expect(charged?.total_payment).toBe(pack?.price);

    await desk.mutate('removeClasses', { customer_id: customerId, amount: 2, reason: 'Clases de cortesía mal cargadas' });
    expect((await desk.customerCard(customerId)).totalCredits).toBe(8);
    await expect(desk.mutate('removeClasses', { customer_id: customerId, amount: 50, reason: 'Ajuste de saldo' })).rejects.toMatchObject({ code: 'access/not-enough-classes' });
    await synced();

    const target = (await desk.bookableClasses()).find(
      (c) => c.spot_map && c.booked < c.capacity && new Date(c.class_date).getTime() > Date.now() + 24 * 3_600_000 && !c.customerIds.includes(customerId),
    );
    expect(target, 'the demo week has a class with free seats').toBeDefined();
    const seat = Array.from({ length: 40 }, (_, i) => i + 1).find((n) => !target?.takenSpots.includes(n)) ?? 1;
    await desk.mutate('walkIn', { customer_id: customerId, single_class_id: target?.single_class_id ?? 0, spot: seat, guest: 'Lucía' });
    expect((await desk.customerCard(customerId)).upcoming.find((r) => r.single_class_id === target?.single_class_id)).toMatchObject({ spot: seat, guest: 'Lucía' });
    await synced();
    const [booked] = await server.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.customer_id, customerId), eq(class_reservation.single_class_id, target?.single_class_id ?? 0)));
    expect(booked).toMatchObject({ spot: seat, guest: 'Lucía', deletedAt: null });
    // The demo studio charges a guest's class too (guest_uses_credit, decision 028): Lucía's seat took a second credit.
    expect((await desk.customerCard(customerId)).totalCredits).toBe(6);

    const [unpaid] = await desk.db.select().from(class_reservation).where(and(eq(class_reservation.is_cash, true), eq(class_reservation.is_paid, false), isNull(class_reservation.deletedAt))).limit(1);
    expect(unpaid, 'the demo seed has cash bookings still to pay').toBeDefined();
    await desk.mutate('markReservationPaid', { class_reservation_id: unpaid?.class_reservation_id ?? 0 });
    await synced();
    const [paid] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, unpaid?.class_reservation_id ?? 0));
    expect(paid?.is_paid).toBe(true);

    await desk.mutate('revokeAccess', { purchase_id: granted?.purchase_id ?? 0, reason: 'Se cargó al cliente equivocado' });
    await synced();
    const card = await desk.customerCard(customerId);
    expect(card.purchases.find((p) => p.purchase_id === granted?.purchase_id)?.status).toBe('revoked');
    expect(desk.status().rejections).toEqual([]);
  });

  it('restarted while the server is away, stays signed in, checks in offline, and sends it when the server is back', async () => {
    // Someone of a class starting now (inside the check-in window, decision 016), synced before the server goes away.
    const [anyClass] = await server.db.select().from(single_class).limit(1);
    const [nowClass] = await server.db
      .insert(single_class)
      .values({ class_date: checkInStart(5), capacity: 10, location_id: anyClass?.location_id ?? 0, class_type_id: anyClass?.class_type_id ?? 0 })
      .returning();
    const [someone] = await server.db.select({ id: customer.customer_id }).from(customer).limit(1);
    await server.db.insert(class_reservation).values({ single_class_id: nowClass?.single_class_id ?? 0, customer_id: someone?.id ?? 0 });
    await until('the class reaches the replica', async () => (await desk.db.$count(class_reservation, eq(class_reservation.single_class_id, nowClass?.single_class_id ?? 0))) === 1);
    await desk.close();
    // Nothing listens on port 9: the desk cannot reach any server.
    desk = new DeskService({ dataDir, serverUrl: 'http://127.0.0.1:9' }, syncDeps);
    await desk.start();
    expect(desk.user()).toMatchObject({ email: 'recepcion@estudio.demo' });
    expect(desk.status().online).toBe(false);
    const waiting = (await desk.today()).locations
      .flatMap((l) => l.classes.filter((c) => c.single_class_id === nowClass?.single_class_id).flatMap((c) => c.roster))
      .find((r) => !r.attend);
    expect(waiting, 'the demo seed has someone still to arrive today').toBeDefined();
    const id = waiting?.class_reservation_id ?? 0;
    expect(await desk.checkIn(id)).toMatchObject({ checkedIn: true, reservation: { attend: true } });
    expect(desk.status()).toMatchObject({ online: false, pending: 1 });

    await desk.close();
    desk = await openDesk();
    await until('outbox sent', () => desk.status().online && desk.status().pending === 0);
    const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
    expect(row?.attend).toBe(true);
  });

  it('checks in 500 scans in a row from the replica, and the server gets all 500', async () => {
    const [cls] = await server.db.select().from(single_class).orderBy(single_class.single_class_id).limit(1);
    const people = await server.db.select({ id: customer.customer_id }).from(customer).limit(200);
    // A class that started ten minutes ago with 500 bookings (the check-in rule does not look at capacity).
    const [today] = await server.db
      .insert(single_class)
      .values({ class_date: checkInStart(-10), capacity: 500, location_id: cls?.location_id ?? 0, class_type_id: cls?.class_type_id ?? 0 })
      .returning();
    const rows = await server.db
      .insert(class_reservation)
      .values(Array.from({ length: 500 }, (_, i) => ({ single_class_id: today?.single_class_id ?? 0, customer_id: people[i % people.length]?.id ?? 0 })))
      .returning({ id: class_reservation.class_reservation_id, code: class_reservation.access_code });
    await until('the bookings reach the replica', async () => (await desk.db.$count(class_reservation, eq(class_reservation.single_class_id, today?.single_class_id ?? 0))) === 500);

    // How fast is bench/desk.ts's business; here: every scan checks in, and all of them arrive.
    for (const { id, code } of rows) {
      const result = await desk.scan(`http://127.0.0.1:3000/admin/reservaciones/${id}/${code}`);
      expect(result.checkedIn).toBe(true);
    }

    await until('all 500 sent', () => desk.status().pending === 0, 60_000);
    const attended = await server.db.$count(class_reservation, and(eq(class_reservation.single_class_id, today?.single_class_id ?? 0), eq(class_reservation.attend, true)));
    expect(attended).toBe(500);
  }, 180_000);

  it('uploads a video from the disk as Electron does, telling its progress (decision 046)', async () => {
    // A file that starts as an MP4 ('ftyp', brand isom), 6 MB.
    const mp4Head = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
    const video = path.join(dataDir, 'clase.mp4');
    writeFileSync(video, Buffer.concat([mp4Head, Buffer.alloc(6 * 1024 * 1024 - mp4Head.length, 7)]));
    const total = 6 * 1024 * 1024;

    const events: VideoUploadEvent[] = [];
    for await (const event of videoUploadEvents((options) => desk.uploadVideoFromPath(video, options), undefined)) events.push(event);
    const progress = events.filter((e): e is { sent: number; total: number } => 'sent' in e);
    // Whole percents, in order, up to the whole file; then the stored file.
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((e, i) => e.total === total && (i === 0 || e.sent > (progress[i - 1]?.sent ?? 0)))).toBe(true);
    expect(progress.at(-1)?.sent).toBe(total);
    const last = events.at(-1);
    expect(last && 'stored' in last ? last.stored : null).toMatchObject({ size: total, type: 'video/mp4', src: expect.stringMatching(/^\/files\/[a-z0-9-]+\.mp4$/) });
    const [row] = await server.db.select({ size: file.size }).from(file).where(eq(file.src, last && 'stored' in last ? last.stored.src : ''));
    expect(row?.size).toBe(total);
  });

  it('a video upload cancelled halfway stores nothing: the server removes the part it had written and records no file', async () => {
    const mp4Head = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
    const total = 6 * 1024 * 1024;
    const filesDir = localFilesDir(server.config);
    const namesBefore = new Set(readdirSync(filesDir));
    const rowsBefore = await server.db.select({ id: file.file_id }).from(file);
    /** Half of the file, then nothing until the upload is cancelled (a slow disk or network, as far as the server can tell). */
    async function* firstHalf(signal: AbortSignal): AsyncGenerator<Uint8Array> {
      yield Buffer.concat([mp4Head, Buffer.alloc(total / 2 - mp4Head.length, 7)]);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    }
    const cancel = new AbortController();
    const seen: VideoUploadEvent[] = [];
    const uploading = (async () => {
      for await (const event of videoUploadEvents(
        ({ signal }) => desk.uploadVideo({ body: firstHalf(signal), name: 'clase.mp4', type: 'video/mp4', size: total, signal }),
        cancel.signal,
      )) {
        seen.push(event);
      }
    })();
    // The server is writing it: its file appears in the storage folder. Then the console's Cancelar.
    let partial = '';
    await vi.waitFor(
      () => {
        partial = readdirSync(filesDir).find((name) => !namesBefore.has(name) && name.endsWith('.mp4')) ?? '';
        expect(partial).not.toBe('');
      },
      { timeout: 10_000 },
    );
    cancel.abort();
    await expect(uploading).rejects.toThrow();
    // The server's side of the upload has ended when it has removed what it wrote (the storage's clean-up after the broken stream);
    // only then is "no row" an answer and not a race.
    await vi.waitFor(() => expect(existsSync(path.join(filesDir, partial))).toBe(false), { timeout: 10_000 });
    expect(seen.some((e) => 'stored' in e)).toBe(false);
    expect(await server.db.select({ id: file.file_id }).from(file)).toHaveLength(rowsBefore.length);
    expect(await server.db.select().from(file).where(eq(file.storage_key, partial))).toEqual([]);
  });

  it('signs out', async () => {
    await desk.signOut();
    expect(desk.user()).toBeNull();
    await expect(desk.today()).rejects.toMatchObject({ code: 'desk/signed-out' });
  });

  it('finds customers among 20,000 by name, e-mail or phone', async () => {
    const replica = await openReplica({ dataDir: 'memory://' });
    try {
      const { ensureSearchIndexes, searchCustomers } = await import('../src/service/queries/customers.ts');
      await ensureSearchIndexes(replica.db);
      const names = ['Ana', 'Beatriz', 'Carla', 'Daniel', 'Eduardo', 'Fernanda', 'Gabriel', 'Hugo', 'Isabel', 'Jorge'];
      const last = ['García', 'Hernández', 'López', 'Martínez', 'Pérez', 'Rodríguez', 'Sánchez', 'Torres'];
      for (let start = 0; start < 20_000; start += 2_000) {
        await replica.db.insert(customer).values(
          Array.from({ length: 2_000 }, (_, k) => {
            const n = start + k + 1;
            return { customer_id: n, name: names[n % names.length] as string, last_name: `${last[n % last.length]} ${n}`, email: `persona${n}@correo.mx`, phone: String(5500000000 + n) };
          }),
        );
      }
      await replica.db.execute('analyze customer');
      // Latency is measured by bench/desk.ts; here, that what staff type finds the right people.
      expect((await searchCustomers(replica.db, 'persona1234')).map((c) => c.email)).toContain('persona1234@correo.mx');
      expect((await searchCustomers(replica.db, '5500012345')).map((c) => c.customer_id)).toContain(12345);
      const fernandas = await searchCustomers(replica.db, 'fernanda t');
      expect(fernandas.length).toBeGreaterThan(0);
      for (const c of fernandas) expect(`${c.name} ${c.last_name}`).toMatch(/^Fernanda Torres/);
      expect(await searchCustomers(replica.db, 'zzz')).toEqual([]);
    } finally {
      await replica.close();
    }
  }, 120_000);
});
