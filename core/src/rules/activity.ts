import { appConfigRules, type AppConfigKey } from '../appconfig.ts';
import { formatMXN, toCents } from './money.ts';
import { setupStepKeys } from './studio-setup.ts';
import { studioSetupTexts } from '../texts-setup.ts';

/**
 * What staff did, as an owner reads it (decision 037).
 * Every audit_log row is one of these kinds, told apart by its entity and
 * action; the list is closed so the Actividad screen's filter and its
 * sentences cannot drift from what the writers record. A row no kind claims
 * (an outbox retry) still shows, as 'other', with a plain sentence.
 */
export const activityKindRules = {
  gift: [['customer', 'access.gift']],
  accessSold: [['customer', 'access.sell']],
  classesRemoved: [['customer', 'classes.remove']],
  creditsChanged: [
    ['customer', 'credits.grant'],
    ['customer', 'credits.update'],
    ['customer', 'credits.remove'],
  ],
  paymentCollected: [
    ['customer', 'purchase.mark-paid'],
    ['class_reservation', 'reservation.mark-paid'],
  ],
  limitReleased: [['customer', 'purchase.limit-release']],
  accessRevoked: [
    ['customer', 'access.revoke'],
    ['customer', 'purchase.cancel'],
  ],
  refund: [['purchase', 'refund']],
  counterSale: [
    ['customer', 'sale.desk'],
    ['customer', 'product.return'],
  ],
  cashShift: [
    ['cash_shift', 'cash_shift.open'],
    ['cash_shift', 'cash_shift.close'],
  ],
  roleChange: [['customer', 'role.change']],
  customerChanged: [
    ['customer', 'update'],
    ['customer', 'recover'],
    ['customer', 'customer.create'],
    ['customer', 'customer.register-matched'],
    ['customer', 'customer.documents.accept-at-desk'],
    ['customer', 'identity.link'],
    ['customer', 'customer.note.add'],
    ['customer', 'customer.note.remove'],
    ['customer', 'penalty.lift'],
  ],
  checkIn: [
    ['class_reservation', 'reservation.check-in'],
    ['class_reservation', 'checkin'],
  ],
  checkInUndone: [['class_reservation', 'reservation.check-in.undo']],
  reservationCancelled: [
    ['class_reservation', 'reservation.cancel'],
    ['class_reservation', 'reservation.cancel.override'],
    ['class_reservation', 'cancel'],
  ],
  reservationChanged: [
    ['class_reservation', 'reservation.walk-in'],
    ['class_reservation', 'reservation.move'],
    ['class_reservation', 'create'],
    ['class_reservation', 'update'],
  ],
  waitlistChanged: [
    ['customer', 'waitlist.join'],
    ['customer', 'waitlist.leave'],
  ],
  classCancelled: [['single_class', 'cancel']],
  settingsChanged: [
    ['app_config', 'update'],
    ['messaging_settings', 'update'],
    ['app_config', 'studio.publish'],
    ['app_config', 'studio.unpublish'],
    ['app_config', 'setup.skip'],
    ['app_config', 'setup.unskip'],
  ],
  catalogueChanged: [
    ['class_package', 'create'],
    ['class_package', 'update'],
    ['class_package', 'delete'],
    ['class_package', 'home.add'],
    ['class_package', 'home.remove'],
    ['discount', 'create'],
    ['discount', 'update'],
    ['discount', 'delete'],
    ['product', 'create'],
    ['product', 'update'],
    ['product', 'delete'],
    ['single_class', 'create'],
    ['single_class', 'update'],
    ['single_class', 'repeat'],
    ['single_class', 'substitute'],
    ['coach_pay_rule', 'create'],
    ['coach_pay_rule', 'delete'],
    ['class_series', 'end-series'],
    ['class_series', 'cancel-series'],
  ],
  imported: [
    ['customer', 'customer.import'],
    ['customer', 'customer.invite'],
    ['customer', 'credits.import'],
    ['class_reservation', 'reservations.import'],
  ],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;

/** A note's kind as the activity sentence says it. */
const noteKindLabel: Record<string, string> = { note: 'una nota', alert: 'una alerta', health: 'una nota de salud' };

export type ActivityKind = keyof typeof activityKindRules;
export const activityKinds = Object.keys(activityKindRules) as ActivityKind[];

/** The filter's names, in the order of the list. */
export const activityKindNames: Record<ActivityKind, string> = {
  gift: 'Regalos de acceso',
  accessSold: 'Accesos cobrados en recepción',
  classesRemoved: 'Clases restadas',
  creditsChanged: 'Créditos dados o corregidos',
  paymentCollected: 'Cobros en recepción',
  limitReleased: 'Límites de compra devueltos',
  accessRevoked: 'Accesos eliminados',
  refund: 'Reembolsos',
  counterSale: 'Ventas y devoluciones en recepción',
  cashShift: 'Turnos de caja',
  roleChange: 'Cambios de rol',
  customerChanged: 'Datos de clientes',
  checkIn: 'Asistencias registradas',
  checkInUndone: 'Asistencias deshechas',
  reservationCancelled: 'Reservaciones canceladas',
  reservationChanged: 'Reservaciones hechas o cambiadas',
  waitlistChanged: 'Listas de espera',
  classCancelled: 'Clases canceladas',
  settingsChanged: 'Configuración',
  catalogueChanged: 'Paquetes, descuentos, productos y horario',
  imported: 'Importaciones de otro sistema',
};

export function activityKindOf(entity: string, action: string): ActivityKind | 'other' {
  for (const kind of activityKinds) {
    if (activityKindRules[kind].some(([e, a]) => e === entity && a === action)) return kind;
  }
  return 'other';
}

/** One audit row with the names the server joined to it. */
export interface ActivityFacts {
  entity: string;
  action: string;
  entityId: string | null;
  changes: unknown;
  /** Who did it: name and e-mail, or null when the account is gone. */
  actor: { name: string; email: string | null } | null;
  /** Whom it was about, when it is about a customer. */
  customerName: string | null;
}

const roleLabel: Record<string, string> = { customer: 'Cliente', staff: 'Recepción', admin: 'Administrador' };

function settingLabel(key: string): string | null {
  return appConfigRules[key as AppConfigKey]?.label ?? null;
}

const classesText = (amount: number) => (amount === 1 ? '1 clase' : `${amount} clases`);
const creditAmountText = (amount: number) => (amount === -1 ? 'ilimitadas' : classesText(amount));

/** A step of Primeros pasos by its stored key, as the owner read it. */
function setupStepTitle(key: unknown): string {
  const step = setupStepKeys.find((k) => k === key);
  return step ? studioSetupTexts.steps[step].title : String(key ?? '');
}

function field(changes: unknown, key: string): unknown {
  return changes && typeof changes === 'object' ? (changes as Record<string, unknown>)[key] : undefined;
}
function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}
function money(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  try {
    return formatMXN(toCents(value));
  } catch {
    return null;
  }
}

/** 'Recepción (recepcion@estudio.demo)': the staff member as the list names them. */
export function activityActorText(actor: ActivityFacts['actor']): string {
  if (!actor) return 'Una cuenta eliminada';
  return actor.email ? `${actor.name} (${actor.email})` : actor.name;
}

/**
 * The sentence an owner reads for one audit row, without the actor
 * ('regaló Ilimitado Mensual a Mariana López — motivo: cumpleaños').
 * Never a key or JSON: what the row does not say is left out.
 */
export function activityWhat(facts: ActivityFacts): string {
  const { changes } = facts;
  const who = facts.customerName ?? 'un cliente';
  const reason = str(field(changes, 'reason'));
  const because = reason ? ` — motivo: ${reason}` : '';
  const kind = activityKindOf(facts.entity, facts.action);
  const title = str(field(changes, 'title')) ?? 'un paquete';
  switch (kind) {
    case 'gift':
      return `regaló ${title} a ${who}${because}`;
    case 'accessSold': {
      const paid = money(field(changes, 'total_payment'));
      // An admin's agreed price (decision 040): the list price beside what was recorded.
      const list = money(field(changes, 'list_price'));
      const agreed = paid && list && paid !== list ? `; precio de lista ${list}` : '';
      return `dio acceso a ${title} a ${who}${paid ? `, cobrado en recepción (${paid}${agreed})` : ''}${because}`;
    }
    case 'classesRemoved': {
      const amount = Number(field(changes, 'amount'));
      return `restó ${classesText(amount)} a ${who}${because}`;
    }
    case 'creditsChanged': {
      if (facts.action === 'credits.grant') {
        const amount = Number(field(changes, 'available_classes'));
        return `dio ${amount === -1 ? 'clases ilimitadas' : classesText(amount)} a ${who}${because}`;
      }
      if (facts.action === 'credits.remove') {
        const amount = Number(field(changes, 'available_classes'));
        return `retiró un registro de ${amount === -1 ? 'clases ilimitadas' : classesText(amount)} de ${who}${because}`;
      }
      const from = field(field(changes, 'available_classes'), 'from');
      const to = field(field(changes, 'available_classes'), 'to');
      const amounts = typeof from === 'number' && typeof to === 'number' && from !== to ? `: de ${creditAmountText(from)} a ${creditAmountText(to)}` : '';
      return `corrigió los créditos de ${who}${amounts}${because}`;
    }
    case 'paymentCollected': {
      if (facts.action === 'reservation.mark-paid') return `cobró en efectivo la clase de ${who}`;
      const paid = money(field(changes, 'total_payment'));
      const how = field(changes, 'paid_with') === 'transfer' ? 'por transferencia' : 'en efectivo';
      return `cobró ${title} a ${who}${paid ? ` (${paid} ${how})` : ` ${how}`}`;
    }
    case 'limitReleased':
      return `devolvió a ${who} el uso de ${title} en los límites de compra (puede comprarlo o usar su código otra vez)${because}`;
    case 'accessRevoked':
      if (facts.action === 'purchase.cancel') return `canceló la compra de ${title} de ${who}${because}`;
      return `eliminó el acceso de ${title} de ${who}${because}`;
    case 'refund': {
      const amount = money(field(changes, 'amount'));
      return `reembolsó ${amount ?? 'una compra'}${facts.customerName ? ` a ${facts.customerName}` : ''}${because}`;
    }
    case 'counterSale': {
      if (facts.action === 'product.return') {
        const quantity = Number(field(changes, 'quantity'));
        const back = money(field(changes, 'amount'));
        const cash = money(field(changes, 'cash_part'));
        const how = back && cash && cash !== back ? ` (${cash} en efectivo, el resto a la tarjeta)` : '';
        const shelf = field(changes, 'restocked') === true ? '; regresó al anaquel' : '';
        return `recibió de ${who} la devolución de ${quantity === 1 ? '1 pieza' : `${quantity} piezas`} de ${str(field(changes, 'title')) ?? 'un producto'}${back ? ` y le regresó ${back}${how}` : ''}${shelf}${because}`;
      }
      // A sale at the counter: its lines as the receipt lists them.
      const lines = field(changes, 'lines');
      const titles = Array.isArray(lines)
        ? lines.flatMap((l) => {
            const name = str(field(l, 'title'));
            const quantity = Number(field(l, 'quantity'));
            return name ? [field(l, 'kind') === 'product' ? `${name} × ${quantity}` : name] : [];
          })
        : [];
      const total = money(field(changes, 'total'));
      return `vendió a ${who} ${titles.length ? titles.join(', ') : 'en recepción'}${total ? ` por ${total}` : ''}`;
    }
    case 'cashShift': {
      if (facts.action === 'cash_shift.open') return `abrió la caja con ${money(field(changes, 'opening_float')) ?? 'su fondo'} de fondo`;
      const counted = money(field(changes, 'counted_cash'));
      const expected = money(field(changes, 'expected_cash'));
      const difference = field(changes, 'difference');
      const cents = typeof difference === 'string' ? toCents(difference) : 0;
      const owner = str(field(changes, 'staff_name'));
      const whose = owner ? ` de ${owner}` : '';
      const outcome = cents === 0 ? 'cuadró' : cents < 0 ? `faltaron ${formatMXN(-cents)}` : `sobraron ${formatMXN(cents)}`;
      const note = str(field(changes, 'note'));
      return `cerró la caja${whose}: contó ${counted ?? '—'}, se esperaban ${expected ?? '—'}; ${outcome}${note ? ` — «${note}»` : ''}`;
    }
    case 'roleChange': {
      const from = roleLabel[String(field(changes, 'from'))] ?? 'otro rol';
      const to = roleLabel[String(field(changes, 'to'))] ?? 'otro rol';
      return `cambió el rol de ${who} de ${from} a ${to}`;
    }
    case 'customerChanged': {
      if (facts.action === 'customer.create') {
        const pending = field(changes, 'documents_pending');
        return `registró a ${who} como cliente nuevo${Array.isArray(pending) && pending.length ? ' (documentos por aceptar al entrar al portal)' : ''}`;
      }
      if (facts.action === 'customer.register-matched') {
        // A walk-in registered offline whose e-mail or phone was already this customer's (decision 113).
        const typed = field(changes, 'typed');
        const name = [str(field(typed, 'name')), str(field(typed, 'last_name'))].filter(Boolean).join(' ');
        const by = field(changes, 'matched_by') === 'phone' ? 'teléfono' : 'correo';
        return `registró sin conexión a «${name}», que ya era ${who} (mismo ${by}); lo hecho en recepción quedó en su cuenta`;
      }
      if (facts.action === 'recover') return `recuperó la cuenta de ${who}`;
      // Decision 095: the person's first sign-in with Firebase, by the e-mail Firebase verified; the actor is the person.
      if (facts.action === 'identity.link') return 'entró por primera vez con Firebase con su correo verificado; su cuenta quedó vinculada a ese inicio de sesión';
      if (facts.action === 'customer.documents.accept-at-desk') return `registró en recepción que ${who} aceptó los documentos`;
      if (facts.action === 'penalty.lift') return `quitó la penalización de ${who} antes de que terminara${because}`;
      if (facts.action === 'customer.note.add' || facts.action === 'customer.note.remove') {
        const kind = noteKindLabel[String(field(changes, 'kind'))] ?? 'una nota';
        // A health note's text is never in the log; the others are said as written.
        const body = str(field(changes, 'body'));
        return `${facts.action === 'customer.note.add' ? 'escribió' : 'quitó'} ${kind} ${facts.action === 'customer.note.add' ? 'sobre' : 'de'} ${who}${body ? `: «${body}»` : ''}`;
      }
      const email = field(changes, 'email');
      const from = str(field(email, 'from'));
      const to = str(field(email, 'to'));
      if (from && to) return `cambió el correo de ${who} de ${from} a ${to}`;
      return `editó los datos de ${who}`;
    }
    case 'checkIn':
      return `registró la asistencia de ${who}`;
    case 'checkInUndone':
      return `deshizo la asistencia de ${who}`;
    case 'reservationCancelled': {
      const returned = field(changes, 'credit_returned');
      const credit = returned === true ? ' (se devolvió el crédito)' : returned === false ? ' (sin devolver el crédito)' : '';
      const override = facts.action === 'reservation.cancel.override' ? ' por encima de las reglas' : '';
      return `canceló una reservación de ${who}${override}${credit}${because}`;
    }
    case 'reservationChanged': {
      if (facts.action === 'reservation.move') return `cambió de clase una reservación de ${who}`;
      if (facts.action === 'reservation.walk-in') {
        const guest = str(field(changes, 'guest'));
        const spot = field(changes, 'spot');
        const fromWaitlist = field(changes, 'from_waitlist') === true ? ' y le dio el lugar desde la lista de espera' : '';
        return `reservó una clase para ${who}${typeof spot === 'number' ? ` (lugar ${spot})` : ''}${guest ? ` con su invitado ${guest}` : ''}${fromWaitlist}`;
      }
      if (facts.action === 'create') return `reservó una clase para ${who}`;
      return `editó una reservación de ${who}`;
    }
    case 'waitlistChanged':
      return facts.action === 'waitlist.leave' ? `quitó a ${who} de la lista de espera` : `anotó a ${who} en la lista de espera`;
    case 'classCancelled':
      return `canceló una clase del horario${because}`;
    case 'settingsChanged': {
      if (facts.entity === 'messaging_settings') return 'cambió la configuración de mensajes';
      // The first run (decision 129): the portal opened or closed, a step of Primeros pasos left for later.
      if (facts.action === 'studio.publish') return 'publicó el estudio: el portal quedó abierto al público';
      if (facts.action === 'studio.unpublish') return 'dejó de publicar el estudio: el portal muestra «Próximamente»';
      if (facts.action === 'setup.skip' || facts.action === 'setup.unskip') {
        const step = setupStepTitle(field(changes, 'step'));
        return `${facts.action === 'setup.skip' ? 'omitió por ahora' : 'retomó'} el paso «${step}» de Primeros pasos`;
      }
      const keys = field(changes, 'keys');
      const names = Array.isArray(keys) ? keys.map((k) => settingLabel(String(k))).filter((k): k is string => !!k) : [];
      return names.length ? `cambió la configuración: ${names.join(', ')}` : 'cambió la configuración del estudio';
    }
    case 'catalogueChanged': {
      if (facts.action === 'substitute') {
        const [from, to] = [field(changes, 'from'), field(changes, 'to')];
        return typeof from === 'string' && typeof to === 'string' ? `puso a ${to} en lugar de ${from} en una clase del horario` : 'cambió el coach de una clase del horario';
      }
      if (facts.entity === 'coach_pay_rule') {
        const coach = field(changes, 'coach');
        if (facts.action === 'delete') return 'quitó una tarifa de pago a coach';
        return typeof coach === 'string' ? `cambió la tarifa de pago de ${coach}` : 'cambió una tarifa de pago a coach';
      }
      if (facts.entity === 'class_series') {
        const ids = field(changes, 'single_class_ids');
        const n = Array.isArray(ids) ? ids.length : 0;
        const classes = n === 1 ? '1 clase' : `${n} clases`;
        return facts.action === 'end-series' ? `terminó una serie semanal de clases (canceló ${classes} por venir)` : `canceló ${classes} de una serie semanal`;
      }
      const scope = field(changes, 'scope');
      if (facts.action === 'update' && (scope === 'following' || scope === 'all')) {
        return `modificó una clase de una serie semanal (${scope === 'all' ? 'toda la serie' : 'esta y las siguientes'})`;
      }
      const what = facts.entity === 'class_package' ? 'un paquete' : facts.entity === 'discount' ? 'un descuento' : facts.entity === 'product' ? 'un producto' : 'el horario de clases';
      const verb = facts.action === 'create' || facts.action === 'repeat' ? 'agregó' : facts.action === 'delete' ? 'eliminó' : 'modificó';
      return `${verb} ${what}`;
    }
    case 'imported': {
      if (facts.action === 'customer.invite') {
        const invited = Number(field(changes, 'invited'));
        const n = Number.isFinite(invited) ? invited : 0;
        return `invitó a ${n === 1 ? '1 cliente' : `${n} clientes`} a crear su contraseña`;
      }
      const count = Number(field(changes, facts.action === 'customer.import' ? 'created' : 'given'));
      const n = Number.isFinite(count) ? count : 0;
      if (facts.action === 'customer.import') return `importó ${n === 1 ? '1 cliente' : `${n} clientes`} de otro sistema`;
      if (facts.action === 'credits.import') return `importó ${n === 1 ? '1 saldo de clases' : `${n} saldos de clases`} de otro sistema`;
      return `importó ${n === 1 ? '1 reservación' : `${n} reservaciones`} de otro sistema`;
    }
    case 'other':
      return 'hizo un cambio en la administración';
  }
}

/** The whole sentence: 'Recepción (recepcion@estudio.demo) regaló … — motivo: …'. */
export function activitySentence(facts: ActivityFacts): string {
  return `${activityActorText(facts.actor)} ${activityWhat(facts)}.`;
}

/** Minutes apart beyond which the list says when a desk action happened and when it reached the server (an offline desk). */
const deskDelayMs = 2 * 60_000;

/**
 * Where and when a desk action happened, as the list's second line says it:
 * 'En recepción (mostrador 3f9a2c1b)', and for an action kept offline
 * 'hecho a las 06:02, llegó al servidor a las 07:15'. `time` formats an
 * instant in the studio's zone.
 */
export function activityDeskText(desk: { id: string; occurred_at: string }, arrivedAt: string, time: (iso: string) => string): string {
  const where = `En recepción (mostrador ${desk.id})`;
  const late = new Date(arrivedAt).getTime() - new Date(desk.occurred_at).getTime() > deskDelayMs;
  return late ? `${where} · hecho a las ${time(desk.occurred_at)} sin conexión, llegó al servidor a las ${time(arrivedAt)}` : where;
}

/** The console's words for Actividad (the section, its filters, the customer's card). */
export const activityTexts = {
  nav: 'Actividad',
  intro: 'Lo que hizo el personal, lo más reciente primero. Se actualiza sola cada pocos segundos.',
  staff: 'Quién',
  anyStaff: 'Todo el personal',
  customer: 'Cliente',
  customerPlaceholder: 'Busca por nombre, correo o teléfono',
  kind: 'Tipo',
  anyKind: 'Todo',
  from: 'Desde',
  to: 'Hasta',
  empty: 'No hay actividad con estos filtros.',
  cardTitle: 'Actividad del personal con este cliente',
  cardEmpty: 'El personal aún no ha hecho cambios a este cliente.',
  reason: 'Motivo',
  reasonPlaceholder: 'Por qué (queda en Actividad con tu nombre)',
  reasonRequired: 'Escribe el motivo (al menos 3 letras).',
  promoteTitle: '¿Hacer Administrador?',
  promoteBody: (name: string) =>
    `${name} podrá ver y cambiar todo: paquetes, precios, reembolsos, configuración y los roles de los demás. El cambio queda en Actividad con tu nombre.`,
  promoteConfirm: 'Sí, hacer Administrador',
  cancel: 'Cancelar',
};
