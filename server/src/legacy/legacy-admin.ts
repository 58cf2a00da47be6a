import type { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, domainErrors, fieldRefusal, localDate, studioDayRange, studioTimeZone, texts, type ApiErrorBody, type DomainErrorCode, type Role } from '@estudio/core';
import { apiErrorBody, httpStatusOf, toTRPCError } from '../errors.ts';
import { appRouter } from '../router.ts';
import { single_class } from '@estudio/db/schema/schedule';
import { loadStudioSettings } from '../services/schedule/studio-settings.ts';
import type { Context, createContextFactory } from '../trpc.ts';
import { legacyCaller, panelReason } from './legacy-procedures.ts';
import { instagramHandle, panelAttendee, panelCategory, panelClassType, panelCoach, panelCredits, panelCurrentUser, panelDiscount, panelInvoices, panelHomePackage, panelPackage, panelPurchase, panelStaffRow, paymentKindName } from './panel-views.ts';
import { classesByDay, fromPanel, panelClass, panelClassForEdit, wallTime, type Json } from './shapes.ts';
import { categoryFromPanel, classTypeFromPanel, classWriteFromPanel, coachFromPanel, customerFromPanel, discountFromPanelForm, packageFromPanel, withoutEmpty } from './panel-writes.ts';

/**
 * Decision 033: the previous admin panel's calls, served by the
 * same procedures as the spec's routes. Three kinds of entry, all here:
 *
 * - `routes`: paths the spec does not have (and the spec's GET paths whose
 *   answer the panel reads under other keys: the spec's keys are kept, the
 *   panel's are added). Each calls the app router's caller.
 * - `bodies`: the spec's write routes the panel calls with its own names;
 *   the body is renamed before the spec's route runs, so both clients work.
 * - `takeovers`: a spec write the panel calls with a field that needs a
 *   second procedure (a birthdate on a new customer, a total at the desk).
 *
 * Functions the product does not have (circuits, video analytics) answer
 * 404 with a message saying so.
 */

type ContextFactory = ReturnType<typeof createContextFactory>;
type Caller = ReturnType<typeof appRouter.createCaller>;

interface Call {
  caller: Caller;
  /** The adapter's own procedures (legacy-procedures.ts, decision 040). */
  panel: ReturnType<typeof legacyCaller>['legacy'];
  ctx: Context;
  body: Json;
  query: Record<string, string | undefined>;
  params: Record<string, string>;
  /** The path after /api, without its query. */
  path: string;
  /** The studio's zone, for wall times. */
  zone(): Promise<string>;
  /** For a route that answers other than JSON (a redirect). */
  reply: FastifyReply;
}

type Handler = (call: Call) => Promise<unknown>;

const notOffered = (code: DomainErrorCode): Handler => async () => {
  throw new DomainError(code);
};

/** Roles of the previous system, in ours: a manager works the desk; a coach is our Coach (decision 045: its own classes, read-only). */
const panelRoles: Record<string, Role> = { admin: 'admin', manager: 'staff', coach: 'coach', staff: 'staff', customer: 'customer', user: 'customer' };

function roleFromPanel(role: unknown): Role {
  const mapped = typeof role === 'string' ? panelRoles[role.trim().toLowerCase()] : undefined;
  if (!mapped) throw new DomainError('legacy/role');
  return mapped;
}

const range = (q: Call['query']) => ({ start_date: q.start_date ?? '', end_date: q.end_date ?? '' });

/** The studio's calendar year so far, as a report range (the panel's monthly charts are January to December). */
function thisYear(zone: string): { start_date: string; end_date: string } {
  const today = localDate(new Date(), zone);
  return { start_date: `${today.slice(0, 4)}-01-01`, end_date: today };
}

/** Paths of the panel, in the order of its client (CALLS.md). */
export const legacyRoutes: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; summary: string; handle: Handler }[] = [
  // Analytics over the reports, in the shapes its charts read (decision 094).
  {
    method: 'GET',
    path: '/analytics/customers',
    summary: 'Clientes nuevos, activos y cancelados del rango (reporte de clientes), cada uno con teléfono, cumpleaños y lo pagado',
    handle: async ({ panel, query }) => panel.customersReport(range(query)),
  },
  {
    method: 'GET',
    path: '/analytics/purchases',
    summary: 'Ventas por paquete (reporte de ventas): purchases con title, purchases (cuántas) y total (número)',
    handle: async ({ caller, query }) => {
      const sales = await caller.reports.sales(range(query));
      return { ...sales, purchases: sales.by_package.map((p) => ({ ...p, purchases: p.count, total: Number(p.total) })) };
    },
  },
  {
    method: 'GET',
    path: '/analytics/income',
    summary: 'Ingresos del rango (reporte de ventas): income {total, payments} y payment_methods [{name, payments, total}]',
    handle: async ({ caller, query }) => {
      const sales = await caller.reports.sales(range(query));
      return {
        ...sales,
        income: { total: sales.total, payments: sales.count },
        payment_methods: sales.by_method.map((m) => ({ method: m.method, name: paymentKindName(m.method), payments: m.count, total: m.total })),
      };
    },
  },
  {
    method: 'GET',
    path: '/analytics/instructors',
    summary: 'Asistencia por coach (reporte de asistencia): result [{name, booked, attended}]',
    handle: async ({ caller, query }) => {
      const attendance = await caller.reports.attendance(range(query));
      return { ...attendance, result: attendance.by_instructor.map((i) => ({ ...i, booked: i.reservations })) };
    },
  },
  { method: 'GET', path: '/analytics/videos', summary: 'Reproducciones de videos: no existe tal reporte (404)', handle: notOffered('legacy/no-report') },
  {
    method: 'GET',
    path: '/analytics/monthly',
    summary: 'Ventas y asistencia por mes del año en curso del estudio: purchases y reservations con month de 1 a 12',
    handle: async ({ caller, zone }) => {
      const year = thisYear(await zone());
      const [sales, attendance] = await Promise.all([caller.reports.sales(year), caller.reports.attendance(year)]);
      const month = (text: string) => Number(text.slice(5, 7));
      return {
        purchases: sales.by_month.map((m) => ({ month: month(m.month), purchases: m.count, total: Number(m.total) })),
        reservations: attendance.by_month.map((m) => ({ month: month(m.month), booked: m.reservations, attended: m.attended, capacity: m.capacity })),
      };
    },
  },
  {
    method: 'GET',
    path: '/analytics/reservations',
    summary: 'Reservaciones por tipo de clase (reservations) y por horario (capacity: class_hour, capacity, single_classes, bookings, attended)',
    handle: async ({ caller, query }) => {
      const attendance = await caller.reports.attendance(range(query));
      return {
        ...attendance,
        reservations: attendance.by_class_type.map((t) => ({ ...t, booked: t.reservations })),
        capacity: attendance.by_hour.map((h) => ({ class_hour: h.class_hour, capacity: h.capacity, single_classes: h.classes, bookings: h.reservations, attended: h.attended })),
      };
    },
  },

  // Circuits: the product has none.
  { method: 'GET', path: '/circuits', summary: 'Circuitos: Estudio no tiene; la lista está vacía', handle: async () => ({ circuits: [] }) },
  { method: 'POST', path: '/circuits', summary: 'Circuitos: no existen en Estudio (404)', handle: notOffered('legacy/no-circuits') },
  { method: 'PUT', path: '/circuits', summary: 'Circuitos: no existen en Estudio (404)', handle: notOffered('legacy/no-circuits') },
  { method: 'DELETE', path: '/circuits/:id', summary: 'Circuitos: no existen en Estudio (404)', handle: notOffered('legacy/no-circuits') },
  { method: 'POST', path: '/customer/circuit', summary: 'Circuitos: no existen en Estudio (404)', handle: notOffered('legacy/no-circuits') },
  { method: 'POST', path: '/customer/redeem', summary: 'Circuitos: no existen en Estudio (404)', handle: notOffered('legacy/no-circuits') },

  // The schedule.
  {
    method: 'GET',
    path: '/single_class',
    summary: 'Clases entre dos fechas; además de single_classes, classes por día con la hora del estudio',
    handle: async ({ caller, query, zone }) => {
      const answer = await caller.schedule.list(query as never);
      return { ...answer, classes: classesByDay(answer.single_classes as Json[], await zone(), range(query)) };
    },
  },
  {
    method: 'GET',
    path: '/single_class/single/:id',
    summary: 'Una clase; además de single_class, clase con la hora del estudio',
    handle: async ({ caller, params, zone }) => {
      const answer = await caller.schedule.byId({ id: params.id } as never);
      return { ...answer, clase: panelClassForEdit(answer.single_class as Json, await zone()) };
    },
  },
  {
    method: 'GET',
    path: '/single_class/admin',
    summary: 'Clases del rango con la hora del estudio (lista de asistentes)',
    handle: async ({ caller, query, zone }) => {
      const answer = await caller.schedule.list(range(query));
      const tz = await zone();
      return { clases: answer.single_classes.map((c) => panelClass(c as Json, tz)) };
    },
  },
  {
    method: 'GET',
    path: '/single_class/myreservations',
    summary: 'Mis reservaciones',
    handle: async ({ caller }) => caller.reservations.mine({}),
  },
  {
    method: 'GET',
    path: '/single_class/admin/:id',
    summary: 'Una clase con sus asistentes (recepción y admin)',
    handle: async ({ caller, panel, params, zone }) => {
      const id = Number(params.id);
      const found = await panel.roster({ single_class_id: id } as never);
      const { single_class: singleClass } = await caller.schedule.byId({ id } as never);
      return { clase: { ...panelClass(singleClass as Json, await zone()), asistentes: found.class_reservations.map((r) => panelAttendee(r as never)) } };
    },
  },
  {
    method: 'POST',
    path: '/single_class/reservation',
    summary: 'Reserva una clase a nombre de un cliente (recepción y admin)',
    handle: async ({ caller, body }) => caller.reservations.create(fromPanel(body) as never),
  },
  {
    method: 'PUT',
    path: '/single_class/reservation',
    summary: 'Cambia el lugar de una reservación',
    handle: async ({ caller, body }) => caller.reservations.update(fromPanel(body, { numbers: ['spot'] }) as never),
  },
  {
    method: 'POST',
    path: '/single_class/attend',
    summary: 'Marca la asistencia de una reservación (recepción y admin)',
    handle: async ({ caller, body }) => caller.reservations.update(fromPanel(body) as never),
  },
  {
    method: 'POST',
    path: '/single_class/payment',
    summary: 'Marca pagada una reservación en efectivo (recepción y admin)',
    handle: async ({ caller, body }) => caller.reservations.update(fromPanel(body) as never),
  },
  {
    method: 'POST',
    path: '/single_class/asistente',
    summary: 'Agrega un asistente a una clase (recepción y admin)',
    handle: async ({ caller, body }) => {
      const { payment_method_id: method, is_paid: paid, ...rest } = fromPanel(body) as Json;
      // Booked with the customer's credits: a payment method or a paid mark belongs to a purchase, not to the booking.
      if (method !== null && method !== undefined) throw new FieldNotTaken('payment_method_id', 'legacy/attendee-payment');
      if (paid === true) throw new FieldNotTaken('is_paid', 'legacy/attendee-payment');
      return caller.reservations.create(rest as never);
    },
  },
  {
    method: 'DELETE',
    path: '/single_class/asistente/:id',
    summary: 'Quita a un asistente: cancela su reservación (recepción y admin)',
    handle: async ({ caller, params }) => caller.reservations.remove({ id: params.id } as never),
  },
  {
    method: 'DELETE',
    path: '/single_class/:id',
    summary: 'Cancela una clase: avisa y devuelve los créditos de sus reservaciones (admin)',
    handle: async ({ caller, params }) => caller.adminSchedule.cancel({ id: params.id } as never),
  },

  // Coaches.
  {
    method: 'GET',
    path: '/instructors/admin/all',
    summary: 'Todos los coaches (admin)',
    handle: async ({ caller }) => caller.instructors.list(),
  },
  {
    method: 'GET',
    path: '/instructors/:id',
    summary: 'Un coach; además idAdjunto (su foto), user_id y user (la cuenta con la que entra, decisión 045)',
    handle: async ({ caller, panel, params }) => {
      const answer = await caller.instructors.byId({ id: params.id } as never);
      const email = answer.instructor.account_email ?? null;
      // The account a coach signs in with is the owner's to see (customer.query is the admin's); anyone else reads the coach without it.
      const owner = email ? await panel.role().then((role) => role === 'admin', () => false) : false;
      const account = email && owner ? ((await caller.customer.query({ query: email } as never)).customers.find((c) => c.email === email) ?? null) : null;
      return { ...answer, instructor: panelCoach(answer.instructor as unknown as Json, account) };
    },
  },
  {
    method: 'GET',
    path: '/adjuntos/:id',
    summary: 'La foto de un coach por el id de su archivo (redirige a donde se sirve); otro archivo es 404',
    handle: async ({ panel, params, reply }) => {
      const { src } = await panel.coachPhoto({ id: params.id } as never);
      void reply.redirect(src, 302);
      return undefined;
    },
  },
  {
    method: 'PUT',
    path: '/instructors',
    summary: 'Actualiza un coach; el id viaja en el cuerpo (instructor_id)',
    handle: async ({ caller, body }) => {
      const { instructor_id: id, user_id: account, ...rest } = coachFromPanel(body) as Json;
      // 'Asignar Usuario a Coach' writes the account's id; the coach's account is named by its e-mail (decision 045), null unlinks.
      const link = account === undefined ? {} : { customer_email: account === null ? null : (await caller.customer.adminById({ id: account } as never)).customer.email };
      return caller.instructors.update({ id, ...rest, ...link } as never);
    },
  },

  // Customers.
  {
    method: 'GET',
    path: '/customer/admin/all',
    summary: 'Clientes por página (admin); la misma ruta del spec, declarada antes de /customer/admin/{id}',
    handle: async ({ panel, query }) => panel.customersWithValue(query as never),
  },
  {
    method: 'GET',
    path: '/customer/admin/:id',
    summary: 'Un cliente; además, customer trae sus compras, créditos y reservaciones dentro',
    handle: async ({ caller, params, zone }) => {
      const answer = await caller.customer.adminById({ id: params.id } as never);
      const found = await caller.reservations.search({ customer_id: Number(params.id), status: 'all' } as never);
      const tz = await zone();
      const reservations = found.class_reservations.map((r) => {
        const row = r as unknown as Json;
        if (!isJson(row.single_class)) return row;
        const shown = panelClass(row.single_class, tz);
        return { ...row, single_class: shown, class_instructors: shown.class_instructors };
      });
      const purchases = answer.purchases as unknown as (Json & { purchase_id: number; createdAt: string })[];
      return {
        ...answer,
        customer: {
          ...answer.customer,
          instagram_account: instagramHandle(answer.customer.instagram),
          purchases: purchases.map((p) => panelPurchase(p, tz)),
          invoices: panelInvoices(purchases),
          available_classes: panelCredits(answer.credits.available_classes as never),
          available_circuits: [],
          class_reservations: reservations,
        },
      };
    },
  },
  {
    method: 'PUT',
    path: '/customer/giveClasses',
    summary: 'Da clases sueltas a un cliente (créditos, recepción y admin; el mismo servicio auditado que POST /available_classes)',
    handle: async ({ caller, panel, body }) => {
      const { amount, expiration_days: days, ...rest } = fromPanel(body, { numbers: ['amount', 'expiration_days'] }) as Json;
      const expiration = typeof days === 'number' ? new Date(Date.now() + days * 86_400_000).toISOString() : days;
      const grant = { ...rest, available_classes: amount, ...(expiration !== undefined ? { expiration_date: expiration } : {}) };
      // The panel has no reason field: an Administrador's grant is recorded with the panel's reason; anyone else's is the procedure's refusal.
      return caller.credits.grant((hasReason(body) ? grant : await withPanelReason(panel, grant)) as never);
    },
  },
  {
    // Never a link that signs in as the customer in staff's hands: the customer gets the portal's reset e-mail (same procedure, limits and audit).
    method: 'POST',
    path: '/customer/resetPasswordLink',
    summary: 'Envía al cliente el correo para elegir su contraseña; link es la página de recuperación del estudio con su correo, nunca una liga que entre como ella',
    handle: async ({ caller, body, ctx }) => {
      const answer = await caller.customer.recover(fromPanel(body) as never);
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      // The panel copies `link` for staff to paste to the customer and says so: the studio's recovery page with her
      // e-mail filled in, where she asks for her own link. A link that sets the password never reaches staff.
      const link = `${ctx.config.PUBLIC_URL}/recuperar?email=${encodeURIComponent(email)}`;
      // Never 'sent' while it waits in the outbox of a studio that sends no e-mail: the procedure's own words say so.
      const { email: canSend } = await caller.messaging.channels();
      return canSend ? { link, sent: true, message: texts.adminCommerce.recoverSentTo(email) } : { link, sent: false, message: answer.message };
    },
  },

  // Discounts.
  {
    method: 'GET',
    path: '/discounts/code/:code',
    summary: 'Valida un código; sin class_package_id (el panel) dice si el código se puede usar hoy, sin total; además de discount, descuento',
    handle: async ({ caller, panel, params, query }) => {
      if (query.class_package_id === undefined || query.class_package_id === '') return panel.discountUsable({ code: params.code ?? '' });
      const answer = await caller.discounts.validate({ code: params.code, class_package_id: query.class_package_id } as never);
      return { ...answer, descuento: answer.discount };
    },
  },

  // Class categories.
  {
    method: 'GET',
    path: '/class_categories',
    summary: 'Categorías de clase; además is_free (el interruptor «¿Es gratis?» del panel: Estudio no tiene categorías gratuitas)',
    handle: async ({ caller }) => {
      const answer = await caller.classCategories.list();
      return { ...answer, class_categories: answer.class_categories.map((c) => panelCategory(c as unknown as Json)) };
    },
  },
  {
    method: 'GET',
    path: '/class_categories/:id',
    summary: 'Una categoría (o las disponibles); además is_free',
    handle: async ({ caller, params }) => {
      if (params.id === 'available') {
        const answer = await caller.classCategories.available();
        return { ...answer, class_categories: answer.class_categories.map((c) => panelCategory(c as unknown as Json)) };
      }
      const answer = await caller.classCategories.byId({ id: params.id } as never);
      return { ...answer, class_category: panelCategory(answer.class_category as unknown as Json) };
    },
  },

  // Packages.
  {
    method: 'GET',
    path: '/class_packages',
    summary: 'Paquetes a la venta; además de class_packages, packages con package_class_id (el id con que el Home del panel compara)',
    handle: async ({ caller }) => {
      const answer = await caller.packages.list();
      return { ...answer, packages: answer.class_packages.map((p) => panelHomePackage(p as unknown as Json)) };
    },
  },
  {
    method: 'GET',
    path: '/class_packages/online/all',
    summary: 'Paquetes online; además de class_packages, packages',
    handle: async ({ caller }) => packagesToo(await caller.packages.onlineAll()),
  },
  {
    method: 'GET',
    path: '/class_packages/admin/all',
    summary: 'Todos los paquetes (admin); además de class_packages, packages con el nombre del panel del límite de personas (customer_limit)',
    handle: async ({ caller, query }) => {
      const answer = await caller.packages.adminAll(query as never);
      return { ...answer, packages: answer.class_packages.map((p) => panelPackage(p as unknown as Json)) };
    },
  },
  {
    method: 'GET',
    path: '/class_packages/admin/:id',
    summary: 'Un paquete para editarlo (admin); además customer_limit',
    handle: async ({ caller, params }) => {
      const answer = await caller.packages.adminById({ id: params.id } as never);
      return { ...answer, class_package: panelPackage(answer.class_package as unknown as Json) };
    },
  },
  {
    method: 'GET',
    path: '/class_packages/presenciales/home',
    summary: 'Paquetes presenciales del home; además de class_packages, paquetes con package_class_id',
    handle: async ({ caller }) => {
      const answer = await caller.packages.presencialesHome();
      return { ...answer, paquetes: answer.class_packages.map((p) => panelHomePackage(p as unknown as Json)) };
    },
  },
  {
    method: 'GET',
    path: '/class_packages/especiales/:id/asistentes',
    summary: 'Asistentes de un evento especial; además de customers, class_package (con su clase y quién la reservó), single_class y asistentes',
    handle: async ({ caller, panel, params, zone }) => {
      const answer = await caller.packages.attendees({ id: params.id } as never);
      // The spec's route is open to reception, the package's admin view is not: the event as anyone may read it while on
      // sale, else as an admin sees it, else (reception, a hidden event) the attendees alone, as the spec's route answers.
      const unreadable = (error: unknown) => ['NOT_FOUND', 'FORBIDDEN'].includes((error as { code?: string }).code ?? '');
      const pkg = await caller.packages
        .byId({ id: params.id } as never)
        .catch(async (error: unknown) => (unreadable(error) ? caller.packages.adminById({ id: params.id } as never) : Promise.reject(error)))
        .then(({ class_package }) => class_package)
        .catch((error: unknown) => (unreadable(error) ? null : Promise.reject(error)));
      if (!pkg) return { ...answer, class_package: null, single_class: null, asistentes: answer.customers };
      const tz = await zone();
      const event = await eventClassOf(caller, pkg as unknown as Json, tz);
      // The panel reads the event's class and its roster inside the package (class_package.single_class.class_reservations).
      const roster = event ? (await panel.roster({ single_class_id: event.single_class_id } as never)).class_reservations.map((r) => panelAttendee(r as never)) : [];
      // Its seat map reads the seats taken from the class as it holds it (single_class.asistentes).
      const single = event ? { ...event, class_reservations: roster, asistentes: roster } : null;
      return { ...answer, class_package: { ...panelPackage(pkg as unknown as Json), single_class: single }, single_class: single, asistentes: answer.customers };
    },
  },
  {
    method: 'GET',
    path: '/class_packages/admin/especiales',
    summary: 'Eventos especiales (admin)',
    handle: async ({ caller, zone }) => {
      const answer = await caller.packages.adminAll({ limit: 100 } as never);
      const tz = await zone();
      const events = answer.class_packages.filter((p) => p.is_special_event);
      // Each event with its class (the panel shows its date) and who bought it (it counts the purchases).
      const packages = await Promise.all(
        events.map(async (p) => {
          const { customers } = await caller.packages.attendees({ id: p.class_package_id } as never);
          const event = await eventClassOf(caller, p as unknown as Json, tz);
          return {
            ...panelPackage(p as unknown as Json),
            single_class: event ? { ...event, class_date: event.class_date_utc } : null,
            purchases: customers.map((c) => ({ purchase_id: c.purchase_id, customer_id: c.customer_id, status: c.status })),
          };
        }),
      );
      return { ...answer, packages };
    },
  },

  {
    method: 'GET',
    path: '/purchases/admin/all',
    summary: 'Compras del rango (purchases.adminAll); cada una con class_package, customer (y sus cargos) y payment_method; status y query del panel filtran',
    handle: async ({ panel, query }) => {
      const status = query.status ? panelOrderStatus[query.status] : undefined;
      if (query.status && !status) throw new FieldNotTaken('status', 'legacy/order-status');
      return panel.orders({ ...range(query), page: query.page ?? 1, ...(status ? { status } : {}), ...(query.query ? { query: query.query } : {}) } as never);
    },
  },

  // The catalogue with the fields the panel's forms read and send back.
  {
    method: 'GET',
    path: '/locations',
    summary: 'Sucursales con todos sus datos (la descripción incluida); con fechas, solo las que tienen clases en ese rango',
    handle: async ({ caller, query }) => {
      const answer = await caller.locations.list(withoutUndefined(query) as never);
      const locations = await Promise.all(answer.locations.map(async (l) => ({ ...l, ...(await caller.locations.byId({ id: l.location_id } as never)).location })));
      return { ...answer, locations };
    },
  },
  {
    method: 'GET',
    path: '/class_types',
    summary: 'Tipos de clase; además mapa (el mapa de lugares con el nombre del panel)',
    handle: async ({ caller }) => {
      const answer = await caller.classTypes.list();
      return { ...answer, class_types: answer.class_types.map((t) => panelClassType(t as unknown as Json)) };
    },
  },
  {
    method: 'GET',
    path: '/discounts/admin/all',
    summary: 'Códigos de descuento (admin); además start_date, expiration_date (días del estudio) y limit_per_customer',
    handle: async ({ caller, query, zone }) => {
      const answer = await caller.discounts.adminAll(withoutUndefined(query) as never);
      const tz = await zone();
      return { ...answer, discounts: answer.discounts.map((d) => panelDiscount(d as unknown as Json, (iso) => wallTime(iso, tz).slice(0, 10))) };
    },
  },

  // Reservations.
  {
    method: 'GET',
    path: '/class_reservations',
    summary: 'Reservaciones (búsqueda); además de class_reservations, reservations',
    handle: async ({ caller, query }) => {
      const answer = await caller.reservations.search(query as never);
      return { ...answer, reservations: answer.class_reservations };
    },
  },
  {
    method: 'POST',
    path: '/class_reservations/attend/:id',
    summary: 'Marca la asistencia de una reservación (recepción y admin)',
    handle: async ({ caller, params, body }) => caller.reservations.update({ ...(fromPanel(body) as Json), class_reservation_id: Number(params.id) } as never),
  },
  {
    method: 'DELETE',
    path: '/class_reservations/admin/:id',
    summary: 'Cancela la reservación de un cliente (recepción y admin)',
    handle: async ({ caller, params }) => caller.reservations.remove({ id: params.id } as never),
  },

  // Users and roles: the customers and their role.
  {
    method: 'GET',
    path: '/users',
    summary: 'Quién inició sesión y su rol; además user_id y la persona en customer',
    handle: async ({ caller }) => ({ user: panelCurrentUser((await caller.users.current()).user) }),
  },
  {
    method: 'GET',
    path: '/users/admin/all',
    summary: 'Cuentas del personal (recepción, coaches y admin), por página y búsqueda (admin)',
    handle: async ({ panel, query }) => {
      const page = Math.max(1, Number(query.page) || 1);
      const answer = await panel.staffAccounts({ page, ...(query.query ? { query: query.query } : {}) } as never);
      return { ...answer, users: answer.accounts.map((a) => panelStaffRow(a as never)) };
    },
  },
  {
    method: 'POST',
    path: '/users',
    summary: 'Da un rol a la cuenta de un correo (admin; manager es recepción, coach es Coach)',
    handle: async ({ caller, body }) => {
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const { customers } = await caller.customer.query({ query: email } as never);
      const found = customers.find((c) => c.email.toLowerCase() === email);
      if (!found) throw new DomainError('customer/unknown');
      const answer = await caller.customer.update({ customer_id: found.customer_id, role: roleFromPanel(body.role) } as never);
      return { ...answer, user: panelStaffRow(answer.customer as never) };
    },
  },
  {
    method: 'PUT',
    path: '/users',
    summary: 'Cambia el rol de un usuario (admin; manager es recepción, coach es Coach)',
    handle: async ({ caller, body }) => {
      const { user_id: id } = fromPanel(body) as Json;
      const answer = await caller.customer.update({ customer_id: id, role: roleFromPanel(body.role) } as never);
      return { ...answer, user: panelStaffRow(answer.customer as never) };
    },
  },
  {
    method: 'DELETE',
    path: '/users/:id',
    summary: 'Quita el rol de un usuario: vuelve a ser cliente (admin)',
    handle: async ({ caller, params }) => caller.customer.update({ customer_id: Number(params.id), role: 'customer' } as never),
  },

  // Videos: the panel's /videos/admin/all, POST, PUT and DELETE /videos are the spec's own routes now (decision 038).
  { method: 'GET', path: '/favoritos', summary: 'Mis favoritos (nombre anterior de /favorites)', handle: async ({ caller }) => caller.favorites.list() },
  { method: 'POST', path: '/favoritos', summary: 'Agrega un favorito (nombre anterior de /favorites)', handle: async ({ caller, body }) => caller.favorites.add(fromPanel(body) as never) },
  {
    method: 'DELETE',
    path: '/favoritos/:id',
    summary: 'Quita un favorito por el id del video (nombre anterior de /favorites)',
    handle: async ({ caller, params }) => caller.favorites.remove({ id: params.id, by: 'video' } as never),
  },
];

const isJson = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** The panel's order filters (Activos, Cancelados, Pendientes) in the purchase list's groups. */
const panelOrderStatus: Record<string, 'paid' | 'pending' | 'cancelled'> = { active: 'paid', cancelled: 'cancelled', pending: 'pending' };

/** A special event's class (the package-only class on the event's day) as the panel reads a class, or null when it has none. */
async function eventClassOf(caller: Caller, pkg: Json, tz: string): Promise<(Json & { single_class_id: number; class_date_utc: string }) | null> {
  if (typeof pkg.event_date !== 'string') return null;
  const day = wallTime(pkg.event_date, tz).slice(0, 10);
  const { single_classes: classes } = await caller.schedule.list({ start_date: day, end_date: day } as never);
  const event = classes.find((c) => c.class_package_id === pkg.class_package_id);
  return event ? (panelClass(event as unknown as Json, tz) as Json & { single_class_id: number; class_date_utc: string }) : null;
}

function packagesToo<T extends { class_packages: unknown[] }>(answer: T): T & { packages: unknown[] } {
  return { ...answer, packages: answer.class_packages };
}

/** The panel writes `undefined` into its query strings for the filters it leaves empty. */
function withoutUndefined(query: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== 'undefined' && e[1] !== ''));
}

function withoutUndefinedParams(url: string): string {
  const [path, query = ''] = url.split('?');
  const kept = query.split('&').filter((pair) => pair !== '' && !pair.endsWith('=undefined'));
  return kept.length ? `${path}?${kept.join('&')}` : (path ?? url);
}

/** A field of the panel the product cannot store as sent: a 400 naming it (never a silent drop). */
class FieldNotTaken extends Error {
  constructor(
    readonly field: string,
    readonly reason: DomainErrorCode,
  ) {
    super(field);
  }
}

/** The spec's write routes the panel calls with its own names: the body as the spec's route reads it. */
const bodies: { method: string; path: RegExp; map: (body: unknown) => unknown }[] = [
  { method: 'POST', path: /^\/class_categories$/, map: categoryFromPanel },
  { method: 'PUT', path: /^\/class_categories$/, map: categoryFromPanel },
  { method: 'POST', path: /^\/class_types$/, map: classTypeFromPanel },
  { method: 'PUT', path: /^\/class_types$/, map: classTypeFromPanel },
  { method: 'POST', path: /^\/instructors$/, map: (b) => withoutEmpty(coachFromPanel(b), ['user_id']) },
  { method: 'POST', path: /^\/single_class$/, map: (b) => withDefaultDuration(classWriteFromPanel(b)) },
  { method: 'PUT', path: /^\/single_class$/, map: classWriteFromPanel },
  { method: 'PUT', path: /^\/customer\/revokeAccess$/, map: (b) => fromPanel(b) },
  { method: 'PUT', path: /^\/customer\/removeClasses$/, map: (b) => fromPanel(b, { numbers: ['amount'] }) },
  { method: 'POST', path: /^\/locations$/, map: (b) => fromPanel(b) },
  { method: 'PUT', path: /^\/locations$/, map: (b) => fromPanel(b) },
  { method: 'POST', path: /^\/class_reservations$/, map: (b) => fromPanel(b) },
  { method: 'POST', path: /^\/checkout\/paypal$/, map: (b) => fromPanel(b, { aliases: { packageClassId: 'class_package_id' } }) },
  { method: 'PUT', path: /^\/class_reservations$/, map: (b) => fromPanel(b, { numbers: ['spot'] }) },
];

/** A new class from the panel has no length: the schedule's own default (the column's), as a class saved without one. */
function withDefaultDuration(body: unknown): unknown {
  if (!isJson(body) || body.duration_minutes !== undefined) return body;
  return { ...body, duration_minutes: single_class.duration_minutes.default };
}


/** A date the panel sends for a discount ('YYYY-MM-DD'): the start of that day in the studio. */
function dayStart(value: unknown, zone: string): unknown {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return value;
  const day = value.trim();
  return studioDayRange(day, day, zone).from.toISOString();
}

/** Spec writes the panel calls with a field that needs another procedure: answered here, before the spec's route. */
const takeovers: { method: string; path: RegExp; applies: (body: Json) => boolean; handle: Handler }[] = [
  {
    // The panel's new customer carries a birthdate, which the spec's create does not take: create, then save it as the admin.
    method: 'POST',
    path: /^\/customer$/,
    applies: (b) => 'customer_id' in b || 'birthdate' in b,
    handle: async ({ caller, panel, body }) => {
      const fields = fromPanel(customerFromPanel(body)) as Json;
      // The panel has no documents to tick (the customer is not at the counter): they stay pending, asked at her first
      // sign-in (decision 040); her Instagram, birthday and how she heard of the studio are stored with her, in one write.
      if (!('accepted_page_ids' in fields)) return panel.createCustomerDocumentsPending(fields as never);
      const { birthdate, ...rest } = fields;
      const created = await caller.customer.create(rest as never);
      if (birthdate === undefined || birthdate === null || birthdate === '') return created;
      return caller.customer.update({ customer_id: created.customer.customer_id, birthdate } as never);
    },
  },
  {
    // The panel sends the customer's e-mail back with every save; the same e-mail is no change (another is refused by name).
    method: 'PUT',
    path: /^\/customer$/,
    applies: (b) => 'email' in b && b.customer_id !== undefined,
    handle: async ({ caller, body }) => {
      const { email, ...rest } = fromPanel(customerFromPanel(body)) as Json;
      // Only an admin reads any customer here; anyone else's save goes to the procedure as sent, which judges it
      // (Recepción's rule, a customer's own e-mail sent back), as the same call without this hook would.
      const stored = await caller.customer.adminById({ id: rest.customer_id } as never).catch((error: unknown) =>
        (error as { code?: string }).code === 'FORBIDDEN' ? null : Promise.reject(error),
      );
      if (!stored) return caller.customer.update({ ...rest, email } as never);
      const same = typeof email === 'string' && email.trim().toLowerCase() === (stored.customer as unknown as Json).email;
      return caller.customer.update((same ? rest : { ...rest, email }) as never);
    },
  },
  {
    // `expiration_days` is the spec's `package_days`; `total` is what was collected, recorded with its invoice (bill).
    method: 'POST',
    path: /^\/customer\/giveAccess$/,
    applies: (b) => 'total' in b || 'expiration_days' in b,
    handle: async ({ caller, panel, body }) => {
      const { total, ...rest } = fromPanel(body, { numbers: ['expiration_days', 'package_days'], aliases: { expiration_days: 'package_days' } }) as Json;
      if (total === undefined || total === null || total === '') return caller.customer.giveAccess(rest as never);
      // A gift is not charged; a sale records the typed total with its invoice (another amount than the list price: an Administrador's, decision 040).
      if (rest.is_gift === true && Number(total) !== 0) throw new FieldNotTaken('total', 'legacy/total-not-price');
      return panel.giveAccessAtTotal({ ...rest, total, bill: true } as never);
    },
  },
  {
    // The panel has no reason field: an Administrador's revocation is recorded with the panel's reason; anyone else's is the procedure's refusal.
    method: 'PUT',
    path: /^\/customer\/revokeAccess$/,
    applies: (b) => !hasReason(b),
    handle: async ({ caller, panel, body }) => caller.customer.revokeAccess((await withPanelReason(panel, fromPanel(body) as Json)) as never),
  },
  {
    method: 'PUT',
    path: /^\/customer\/removeClasses$/,
    applies: (b) => !hasReason(b),
    handle: async ({ caller, panel, body }) => caller.customer.removeClasses((await withPanelReason(panel, fromPanel(body, { numbers: ['amount'] }) as Json)) as never),
  },
  {
    // 'Cancelar compra' on the customer's screen: an Administrador cancels it for her with the panel's reason (the customer's cancellation rule).
    method: 'POST',
    path: /^\/purchases\/cancel\/[^/]+$/,
    applies: (b) => !hasReason(b),
    handle: async ({ caller, panel, path, body }) => {
      const id = path.split('/').pop() ?? '';
      // Only the panel's empty body is the admin's cancellation; anything else is the spec's route (an unknown field refused by name).
      if (Object.keys(body).length === 0 && (await roleOf(panel)) === 'admin') return panel.cancelPurchaseFor({ id } as never);
      return caller.purchases.cancel({ ...body, id } as never);
    },
  },
  {
    // Another class in PUT /class_reservations is the desk's move (its rules and audit row); the same class is the seat change.
    method: 'PUT',
    path: /^\/class_reservations$/,
    applies: (b) => b.single_class_id !== undefined && b.single_class_id !== null,
    handle: async ({ caller, panel, body }) => {
      const { single_class_id: target, ...rest } = fromPanel(body, { numbers: ['spot', 'single_class_id', 'class_reservation_id'] }) as Json;
      const { class_reservation: current } = await caller.reservations.byId({ id: rest.class_reservation_id } as never);
      if (current.single_class_id === target) return caller.reservations.update(rest as never);
      return panel.moveReservation({ ...rest, single_class_id: target } as never);
    },
  },
  {
    // start_date, expiration_date and limit_per_customer are the spec's starts_at, expires_at and max_uses_per_customer; dates are the studio's days.
    method: 'POST',
    path: /^\/discounts$/,
    applies: () => true,
    handle: async ({ caller, body, zone }) => caller.discounts.create(discountFromPanel(body, await zone(), null) as never),
  },
  {
    method: 'PUT',
    path: /^\/discounts$/,
    applies: () => true,
    handle: async ({ caller, panel, body, zone }) => {
      const id = Number(body.discount_id);
      // The stored code is read for the owner only: anyone else gets the update's own refusals, in their order (an unknown field first).
      const owner = Number.isInteger(id) && id > 0 && (await roleOf(panel)) === 'admin';
      const stored = owner ? (await caller.discounts.byId({ id } as never)).discount : null;
      return caller.discounts.update(discountFromPanel(body, await zone(), stored as unknown as Json | null) as never);
    },
  },
  {
    // Its form reads the people limit as customer_limit (panelPackage): a save answers the package as that read does.
    method: 'POST',
    path: /^\/class_packages$/,
    applies: () => true,
    handle: async ({ caller, body }) => {
      const answer = await caller.packages.create(packageFromPanel(body) as never);
      return { ...answer, class_package: panelPackage(answer.class_package as unknown as Json) };
    },
  },
  {
    method: 'PUT',
    path: /^\/class_packages$/,
    applies: () => true,
    handle: async ({ caller, body }) => {
      const answer = await caller.packages.update(packageFromPanel(body) as never);
      return { ...answer, class_package: panelPackage(answer.class_package as unknown as Json) };
    },
  },
];

/** The panel never sends a reason: only a body without the key is the panel's (an empty reason sent by another client is refused as before). */
function hasReason(body: Json): boolean {
  return 'reason' in body;
}

/** The panel's fixed reason when the caller is an Administrador; the body unchanged otherwise (the procedure then asks for one). */
async function withPanelReason(panel: Call['panel'], body: Json): Promise<Json> {
  return (await roleOf(panel)) === 'admin' ? { ...body, reason: panelReason } : body;
}

/** The caller's role; none for a caller the procedure itself will refuse (no token, no account), so its refusals keep their order (an unknown field first). */
async function roleOf(panel: Call['panel']): Promise<string | null> {
  return panel.role().catch(() => null);
}

/**
 * The panel's discount in the spec's terms: its form's names mapped
 * (discountFromPanelForm), and its dates as the start of those days in the
 * studio. A date sent back as it was read (the studio's day of what is
 * stored) is no change: the stored instant stays.
 */
function discountFromPanel(body: unknown, zone: string, stored: Json | null): unknown {
  const form = discountFromPanelForm(body);
  if (!isJson(form)) return form;
  const out: Json = { ...form };
  for (const [panelName, ours] of [
    ['start_date', 'starts_at'],
    ['expiration_date', 'expires_at'],
  ] as const) {
    if (!(panelName in out)) continue;
    const { [panelName]: day, [ours]: _echo, ...rest } = out;
    const storedAt = stored?.[ours];
    const unchanged = stored !== null && (typeof storedAt === 'string' ? wallTime(storedAt, zone).slice(0, 10) === day : day === null);
    Object.keys(out).forEach((k) => delete out[k]);
    Object.assign(out, rest, unchanged ? {} : { [ours]: day === null ? null : dayStart(day, zone) });
  }
  return fromPanel(out, { numbers: ['max_uses', 'max_uses_per_customer'] });
}

function errorOf(error: unknown): { status: number; body: ApiErrorBody } {
  if (error instanceof FieldNotTaken) {
    return { status: 400, body: { code: error.reason, message: fieldRefusal(error.field, domainErrors[error.reason].message), field: error.field } };
  }
  const body = apiErrorBody(error instanceof DomainError ? toTRPCError(error) : (error as TRPCError));
  return { status: httpStatusOf(body), body };
}

function callOf(createContext: ContextFactory, req: FastifyRequest, reply: FastifyReply): Call {
  const ctx = createContext({ req, res: reply });
  let zone: Promise<string> | null = null;
  return {
    caller: appRouter.createCaller(ctx),
    panel: legacyCaller(ctx).legacy,
    ctx,
    body: isJson(req.body) ? req.body : {},
    query: (req.query ?? {}) as Record<string, string | undefined>,
    params: (req.params ?? {}) as Record<string, string>,
    path: req.url.slice('/api'.length).split('?')[0] ?? '',
    zone: () => (zone ??= loadStudioSettings(ctx.db).then((settings) => studioTimeZone(settings))),
    reply,
  };
}

async function answer(reply: FastifyReply, run: () => Promise<unknown>) {
  try {
    const body = await run();
    if (reply.sent || reply.statusCode === 302) return reply;
    return reply.type('application/json; charset=utf-8').send(body);
  } catch (error) {
    const { status, body } = errorOf(error);
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  }
}

/**
 * Registers the panel's routes and the renaming of its bodies. Called by
 * buildServer before /api's plugin, so the hooks reach the spec's routes.
 */
export function registerLegacyAdmin(app: FastifyInstance, createContext: ContextFactory): void {
  for (const route of legacyRoutes) {
    app.route({ method: route.method, url: `/api${route.path}`, handler: (req, reply) => answer(reply, () => route.handle(callOf(createContext, req, reply))) });
  }
  app.addHook('preHandler', async (req, reply) => {
    if (req.routeOptions.url !== '/api/*') return;
    // The panel writes `undefined` for the filters it leaves empty (GET /videos?type=undefined&page=undefined…): absent.
    if (req.method === 'GET' && /[?&][^=&]+=undefined(&|$)/.test(req.raw.url ?? '')) {
      req.raw.url = withoutUndefinedParams(req.raw.url ?? '');
      req.query = withoutUndefined(req.query as Record<string, string | undefined>);
    }
    if (!isJson(req.body)) return;
    const path = req.url.slice('/api'.length).split('?')[0] ?? '';
    const takeover = takeovers.find((t) => t.method === req.method && t.path.test(path) && t.applies(req.body as Json));
    if (takeover) return answer(reply, () => takeover.handle(callOf(createContext, req, reply)));
    const body = bodies.find((b) => b.method === req.method && b.path.test(path));
    if (body) req.body = body.map(req.body);
  });
}

